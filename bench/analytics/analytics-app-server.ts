import { breakdown } from './analytics-breakdown';
import { exportCsv, timeRawOverview } from './analytics-engine';
import type { AnalyticsOps } from './analytics-messages';
import { serveCallsApp } from './calls-app';

/*
 * The app child of analytics.bench.ts (and console.bench.ts): the calls app (calls-app.ts), which
 * also answers the raw-row baseline, the statement breakdown and the engine's own CSV export.
 */
serveCallsApp<AnalyticsOps>((clickhouse) => ({
  raw: (request) => timeRawOverview(clickhouse, request),
  breakdown: (request) => breakdown(clickhouse, request),
  export: ({ path, accountId }) => exportCsv(clickhouse, path, accountId),
}));
