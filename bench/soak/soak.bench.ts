import { join } from 'node:path';
import { Agent } from 'undici';
import { progress, runBench } from '../lib/bench-main';
import { describeMachine } from '../lib/machine';
import { parseBenchArgs, STORES_NOTE, storeUrls } from '../lib/options';
import { startApp, throwawayStores } from '../lib/start-app';
import { runSoakLoad } from './soak-load';
import type { SoakOps } from './soak-messages';
import { formatSoakReport, judgeRss, type SoakReport } from './soak-report';
import { SoakTraffic } from './soak-traffic';

const COMMAND = {
  script: 'soak/soak.bench.js',
  options: {
    minutes: { type: 'integer', default: 10, help: 'how long to run; RSS is judged from minute 3 to the last' },
    rate: { type: 'integer', default: 50, help: 'requests per second, sent on schedule' },
  },
  notes: [STORES_NOTE],
} as const;

const parse = (argv: string[]) => ({ ...parseBenchArgs(argv, COMMAND), ...storeUrls() });

/**
 * Mixed traffic at a fixed rate against the real app (PostgreSQL event store, Redis, embedded
 * chDB), with per-minute RSS, event-loop delay, latency and errors: whether memory levels off.
 * The rate limit stays at the app's default: the soak's rate is far below it, and a limit that
 * never triggers measures nothing.
 */
runBench<ReturnType<typeof parse>, SoakReport>({
  parse,
  async run(options, cleanups) {
    const machine = await describeMachine(options.databaseUrl, options.redisUrl);
    progress('starting the app');
    const app = await startApp<object, SoakOps>(cleanups, {
      script: join(__dirname, 'soak-app-server.js'),
      env: { ...throwawayStores(options, cleanups, 'soak'), RATE_LIMIT_PER_MINUTE: undefined },
      provision: { account: 'Soak Account', keys: ['full', 'ingest'], trunks: 0, providers: [] },
      readyTimeoutMs: 90_000,
    });
    const agent = new Agent({ connect: { ca: app.ready.cert }, connections: 64 });
    cleanups.add('close the HTTP agent', () => agent.close());
    const keys = app.ready.account?.keys ?? {};
    const traffic = new SoakTraffic(agent, `https://127.0.0.1:${app.ready.port}`, {
      account: keys.full ?? '',
      ingest: keys.ingest ?? '',
    });
    await traffic.setup();
    progress(`soaking at ${options.rate} requests/s for ${options.minutes} min`);
    const figures = await runSoakLoad(traffic, options.rate, options.minutes, () => app.request('soak-stats'));
    return { machine, rate: options.rate, minutes: options.minutes, figures, ...judgeRss(figures) };
  },
  format: (report) => formatSoakReport(report),
});
