import { rmSync } from 'node:fs';
import { CLICKHOUSE, type ClickHouseExecutor } from '../../src/infrastructure/clickhouse/clickhouse.port';
import { exportQuery, FILE_FORMATS } from '../../src/exports/run/export-query';
import { reportProgress } from '../lib/child-control';
import { serveApp } from '../lib/serve-app';
import { settle } from '../analytics/analytics-engine';
import { loadCalls } from '../analytics/analytics-load';
import type { BaselineRequest, BaselineResult, ExportsOps, ExportsReadyExtra } from './exports-messages';

/*
 * The app child of exports.bench.ts (embedded chDB, PGlite, in-memory read models, a fresh data
 * directory). It also answers bench-only commands through the app's own ClickHouse executor:
 * chDB allows one engine per process, so the bulk load and the baseline run here.
 */
serveApp<ExportsReadyExtra, ExportsOps>(async (running) => {
  const clickhouse = running.app.get<symbol, ClickHouseExecutor>(CLICKHOUSE);
  const [{ version }] = await clickhouse.query<{ version: string }>('SELECT version() AS version');
  return {
    ready: { chdbVersion: version },
    handlers: {
      load: (spec) => loadCalls(clickhouse, spec, reportProgress),
      settle: ({ timeoutMs }) => settle(clickhouse, timeoutMs),
      baseline: (request) => baseline(clickhouse, request),
    },
  };
});

/** The export's own statement (same SQL, same filters), written by the engine with no job, queue or HTTP. */
async function baseline(clickhouse: ClickHouseExecutor, request: BaselineRequest): Promise<BaselineResult> {
  const { sql, params } = exportQuery(request.accountId, {
    start_date: new Date(request.startMs).toISOString(),
    end_date: new Date(request.endMs).toISOString(),
    trunk_id: null,
    status: null,
    from: null,
    to: null,
    direction: null,
  });
  const started = performance.now();
  const { bytes } = await clickhouse.exportToFile(sql, params, FILE_FORMATS[request.format].engine, request.path);
  const ms = performance.now() - started;
  rmSync(request.path, { force: true });
  return { ms, bytes };
}
