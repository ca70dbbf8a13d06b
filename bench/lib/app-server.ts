import { serveApp } from './serve-app';

/*
 * The app child of the api, trunks and scale benches: the app as it is, plus what the bench's
 * BENCH_APP_PROVISION asks for. Benches that need more have their own (e.g. ingest/ingest-app-server.ts).
 */
serveApp();
