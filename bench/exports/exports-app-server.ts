import { rmSync } from 'node:fs';
import type { ClickHouseExecutor } from '../../src/infrastructure/clickhouse/clickhouse.port';
import { exportQuery, FILE_FORMATS } from '../../src/exports/run/export-query';
import { serveCallsApp } from '../analytics/calls-app';
import type { BaselineRequest, BaselineResult, ExportsOps } from './exports-messages';

/*
 * The app child of exports.bench.ts: the calls app (calls-app.ts), which also answers the
 * baseline, the export's statement written by the engine alone.
 */
serveCallsApp<ExportsOps>((clickhouse) => ({
  baseline: (request) => baseline(clickhouse, request),
}));

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
