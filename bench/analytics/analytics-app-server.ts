import { CommandBus } from '@nestjs/cqrs';
import { createApp } from '../../src/app.factory';
import { CLICKHOUSE, ClickHouseExecutor } from '../../src/infrastructure/clickhouse/clickhouse.port';
import { loadConfig } from '../../src/platform/config/app-config';
import { CreateAccount } from '../../src/write/accounts/create-account.handler';
import { IssueApiKey } from '../../src/write/api-keys/api-key.handlers';
import { breakdown } from './analytics-breakdown';
import { exportCsv, settle, timeRawOverview } from './analytics-engine';
import { loadCalls } from './analytics-load';
import type { AnalyticsAppReady, BenchAnswer, BenchCall, BenchProgress } from './analytics-messages';
import { failStartup, serveControl } from './child-control';

/*
 * The real app (embedded chDB, PGlite event store, in-memory read models) in its own process,
 * forked by analytics.bench.ts on a fresh data directory. It provisions one account and a
 * full-scope key, then also answers bench-only commands (load, settle, raw, breakdown, export) that use the
 * app's own ClickHouse executor: chDB allows one engine per process, so the bulk load and the
 * raw-row baseline must run here, beside the app that holds the engine.
 */
async function main(): Promise<void> {
  const config = loadConfig(process.env);
  const running = await createApp(config);
  serveControl(() => running.close());
  if (!running.tls) throw new Error('the bench needs TLS_MODE=native');
  const bus = running.app.get(CommandBus);
  const metadata = { actor: 'bench', correlation_id: 'analytics-bench-setup' };
  const account = await bus.execute(new CreateAccount('Analytics Bench Account', metadata));
  const key = await bus.execute(
    new IssueApiKey(
      { accountId: account.id, name: 'analytics bench key', scopes: ['full'], expiresAt: null },
      metadata,
    ),
  );
  const clickhouse = running.app.get<symbol, ClickHouseExecutor>(CLICKHOUSE);
  serveBenchCalls(clickhouse);
  const [{ version }] = await clickhouse.query<{ version: string }>('SELECT version() AS version');
  const ready: AnalyticsAppReady = {
    type: 'ready',
    port: running.port,
    cert: running.tls.cert,
    accountId: account.id,
    accountKey: key.key,
    chdbVersion: version,
  };
  process.send?.(ready);
}

function serveBenchCalls(clickhouse: ClickHouseExecutor): void {
  const progress = (message: string) => process.send?.({ type: 'bench-progress', message } satisfies BenchProgress);
  process.on('message', (message: BenchCall) => {
    if (message?.type !== 'bench-call') return;
    run(clickhouse, message, progress).then(
      (value) => process.send?.({ type: 'bench-answer', id: message.id, ok: true, value } satisfies BenchAnswer),
      (error: unknown) =>
        process.send?.({
          type: 'bench-answer',
          id: message.id,
          ok: false,
          error: error instanceof Error ? (error.stack ?? error.message) : String(error),
        } satisfies BenchAnswer),
    );
  });
}

function run(clickhouse: ClickHouseExecutor, call: BenchCall, progress: (message: string) => void): Promise<unknown> {
  switch (call.op) {
    case 'load':
      return loadCalls(clickhouse, call.args, progress);
    case 'settle':
      return settle(clickhouse, call.args.timeoutMs);
    case 'raw':
      return timeRawOverview(clickhouse, call.args);
    case 'breakdown':
      return breakdown(clickhouse, call.args);
    case 'export':
      return exportCsv(clickhouse, call.args.path, call.args.accountId);
  }
}

main().catch(failStartup);
