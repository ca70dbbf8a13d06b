import { join } from 'node:path';
import { redactCredentials } from '../event-store/event-store.logger';
import { type ClickHouseExecutor, type ClickHouseLogger, silentClickHouseLogger } from './clickhouse.port';
import { EmbeddedClickHouse } from './embedded/embedded.clickhouse';
import { type ClickHouseMigration, runMigrations } from './migrations';
import { CLICKHOUSE_MIGRATIONS } from './migrations/index';
import { ServerClickHouse } from './server/server.clickhouse';

export interface CreateClickHouseOptions {
  /** A ClickHouse server (CLICKHOUSE_URL); null: embedded chDB in `<dataDir>/clickhouse`. */
  url: string | null;
  dataDir: string;
  logger?: ClickHouseLogger;
  /** Statement time limit in both adapters (default 30 s). */
  timeoutMs?: number;
  /** CLICKHOUSE_CLUSTER: the migrations create replicated and distributed tables ON CLUSTER. */
  cluster?: string | null;
  /** Tests only; the application's schema is CLICKHOUSE_MIGRATIONS. */
  migrations?: readonly ClickHouseMigration[];
}

/**
 * Picks the adapter, checks that it answers and applies the migrations before returning. Throws
 * ChdbMissingError when embedded mode is chosen and the optional chdb package is not installed.
 */
export async function createClickHouse(options: CreateClickHouseOptions): Promise<ClickHouseExecutor> {
  const logger = options.logger ?? silentClickHouseLogger;
  const url = options.url?.trim() || null;
  const dir = join(options.dataDir, 'clickhouse');
  const executor = url
    ? ServerClickHouse.connect({ url, timeoutMs: options.timeoutMs })
    : await EmbeddedClickHouse.open({ dir, timeoutMs: options.timeoutMs, logger });
  try {
    await executor.ping();
    await runMigrations(executor, options.migrations ?? CLICKHOUSE_MIGRATIONS, logger, {
      cluster: url ? options.cluster : null,
    });
  } catch (error) {
    await executor.close().catch(() => undefined);
    throw error;
  }
  logger.info(
    url ? { adapter: 'server', url: redactCredentials(url) } : { adapter: 'embedded', dir },
    'ClickHouse ready',
  );
  return executor;
}
