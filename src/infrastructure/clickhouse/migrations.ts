import { type ClickHouseExecutor, type ClickHouseLogger, silentClickHouseLogger } from './clickhouse.port';
import { ClusterSchema, clusterStatements } from './cluster-ddl';

export interface ClickHouseMigration {
  /** Positive and unique; migrations apply in ascending order. Never renumber a released one. */
  version: number;
  name: string;
  /**
   * Run one at a time, in order. ClickHouse has no DDL transactions: a migration that fails
   * half-way is recorded as not applied and runs again from its first statement at the next start,
   * so every statement must be repeatable (IF NOT EXISTS, IF EXISTS).
   */
  sql: string[];
}

const CREATE_MIGRATIONS_TABLE = `
  CREATE TABLE IF NOT EXISTS schema_migrations (
    version UInt32,
    name String,
    applied_at DateTime64(3, 'UTC')
  ) ENGINE = MergeTree ORDER BY version`;

/**
 * Applies the migrations not yet recorded in schema_migrations and records each one after its
 * last statement. Re-running applies nothing. Returns the versions applied by this call.
 *
 * Two processes starting at once may both apply a migration (there is no lock in ClickHouse); the
 * repeatable statements make that harmless, and the versions are read with DISTINCT.
 */
export async function runMigrations(
  executor: ClickHouseExecutor,
  migrations: readonly ClickHouseMigration[],
  logger: ClickHouseLogger = silentClickHouseLogger,
  options: { cluster?: string | null } = {},
): Promise<number[]> {
  const ordered = checkMigrations(migrations);
  // Cluster mode rewrites every statement (cluster-ddl.ts), those of applied migrations too: later
  // ones need to know which tables they created.
  const schema = options.cluster ? new ClusterSchema(options.cluster) : null;
  const rewrite = (statement: string): string[] => (schema ? clusterStatements(statement, schema) : [statement]);
  for (const statement of rewrite(CREATE_MIGRATIONS_TABLE)) await executor.command(statement);
  const recorded = await executor.query<{ version: number; name: string }>(
    'SELECT DISTINCT version, name FROM schema_migrations ORDER BY version',
  );
  const applied = new Map(recorded.map((row) => [row.version, row.name]));
  const done: number[] = [];
  for (const migration of ordered) {
    const previous = applied.get(migration.version);
    const statements = migration.sql.flatMap(rewrite);
    if (previous !== undefined) {
      if (previous !== migration.name) {
        throw new Error(
          `ClickHouse migration ${migration.version} was applied as "${previous}" but is now named "${migration.name}"`,
        );
      }
      continue;
    }
    for (const statement of statements) await executor.command(statement);
    await executor.command(
      "INSERT INTO schema_migrations (version, name, applied_at) VALUES ({version:UInt32}, {name:String}, now64(3, 'UTC'))",
      { version: migration.version, name: migration.name },
    );
    logger.info({ version: migration.version, name: migration.name }, 'ClickHouse migration applied');
    done.push(migration.version);
  }
  return done;
}

function checkMigrations(migrations: readonly ClickHouseMigration[]): ClickHouseMigration[] {
  const seen = new Set<number>();
  for (const { version } of migrations) {
    if (!Number.isInteger(version) || version < 1)
      throw new Error(`ClickHouse migration version must be a positive integer: ${version}`);
    if (seen.has(version)) throw new Error(`duplicate ClickHouse migration version ${version}`);
    seen.add(version);
  }
  return [...migrations].sort((a, b) => a.version - b.version);
}
