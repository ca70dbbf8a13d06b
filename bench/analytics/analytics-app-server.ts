import { CLICKHOUSE, type ClickHouseExecutor } from '../../src/infrastructure/clickhouse/clickhouse.port';
import { reportProgress } from '../lib/child-control';
import { serveApp } from '../lib/serve-app';
import { breakdown } from './analytics-breakdown';
import { exportCsv, settle, timeRawOverview } from './analytics-engine';
import { loadCalls } from './analytics-load';
import type { AnalyticsOps, AnalyticsReadyExtra } from './analytics-messages';

/*
 * The app child of analytics.bench.ts (embedded chDB, PGlite event store, in-memory read models,
 * on a fresh data directory), which also answers the bench-only commands (load, settle, raw,
 * breakdown, export) through the app's own ClickHouse executor: chDB allows one engine per
 * process, so the bulk load and the raw-row baseline must run here, beside the app that holds it.
 */
serveApp<AnalyticsReadyExtra, AnalyticsOps>(async (running) => {
  const clickhouse = running.app.get<symbol, ClickHouseExecutor>(CLICKHOUSE);
  const [{ version }] = await clickhouse.query<{ version: string }>('SELECT version() AS version');
  return {
    ready: { chdbVersion: version },
    handlers: {
      load: (spec) => loadCalls(clickhouse, spec, reportProgress),
      settle: ({ timeoutMs }) => settle(clickhouse, timeoutMs),
      raw: (request) => timeRawOverview(clickhouse, request),
      breakdown: (request) => breakdown(clickhouse, request),
      export: ({ path, accountId }) => exportCsv(clickhouse, path, accountId),
    },
  };
});
