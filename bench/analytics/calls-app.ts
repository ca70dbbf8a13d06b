import { CLICKHOUSE, type ClickHouseExecutor } from '../../src/infrastructure/clickhouse/clickhouse.port';
import { type OpHandlers, reportProgress } from '../lib/child-control';
import { serveApp } from '../lib/serve-app';
import { settle } from './analytics-engine';
import { loadCalls } from './analytics-load';
import type { CallsOps, CallsReadyExtra } from './analytics-messages';

/** A bench's own requests, answered through the app's ClickHouse executor. */
export type MoreCallsHandlers<O extends CallsOps> = (
  clickhouse: ClickHouseExecutor,
) => OpHandlers<Omit<O, keyof CallsOps>>;

/**
 * The app child of a bench over call records (embedded chDB, PGlite event store, in-memory read
 * models, on a fresh data directory): it reports chDB's version in its `ready`, answers `load`
 * and `settle`, and whatever `more` adds, all through the app's own ClickHouse executor: chDB
 * allows one engine per process, so the bulk load and the baselines must run here, beside the
 * app that holds it.
 */
export function serveCallsApp<O extends CallsOps>(more: MoreCallsHandlers<O>): void {
  serveApp<CallsReadyExtra, O>(async (running) => {
    const clickhouse = running.app.get<symbol, ClickHouseExecutor>(CLICKHOUSE);
    const [{ version }] = await clickhouse.query<{ version: string }>('SELECT version() AS version');
    const shared: OpHandlers<CallsOps> = {
      load: (spec) => loadCalls(clickhouse, spec, reportProgress),
      settle: ({ timeoutMs }) => settle(clickhouse, timeoutMs),
    };
    // O is CallsOps plus the bench's own requests: the two halves together answer all of O.
    const handlers = { ...shared, ...more(clickhouse) } as unknown as OpHandlers<O>;
    return { ready: { chdbVersion: version }, handlers };
  });
}
