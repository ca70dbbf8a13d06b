import { createHash } from 'node:crypto';
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
    applied_at DateTime64(3, 'UTC'),
    checksum String DEFAULT ''
  ) ENGINE = MergeTree ORDER BY version`;

/** Tables made before checksums were recorded get the column; their rows read ''. */
const ADD_CHECKSUM_COLUMN = "ALTER TABLE schema_migrations ADD COLUMN IF NOT EXISTS checksum String DEFAULT ''";

/** The text a migration was applied with, frozen: SHA-256 of its statements as written. */
export function migrationChecksum(migration: ClickHouseMigration): string {
  return createHash('sha256').update(JSON.stringify(migration.sql)).digest('hex');
}

/**
 * Applies the migrations not yet recorded in schema_migrations and records each one after its
 * last statement, with the checksum of its text. Re-running applies nothing. An applied migration
 * whose text changed since refuses the start, naming it (add a new migration instead); one applied
 * before checksums were recorded gets the checksum of its text now. Returns the versions applied.
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
  for (const statement of [CREATE_MIGRATIONS_TABLE, ADD_CHECKSUM_COLUMN].flatMap(rewrite))
    await executor.command(statement);
  const recorded = await executor.query<{ version: number; names: string[]; checksum: string }>(
    'SELECT version, groupUniqArray(name) AS names, max(checksum) AS checksum FROM schema_migrations GROUP BY version ORDER BY version',
  );
  const applied = new Map(recorded.map((row) => [Number(row.version), row]));
  const record = (migration: ClickHouseMigration) =>
    executor.command(
      "INSERT INTO schema_migrations (version, name, applied_at, checksum) VALUES ({version:UInt32}, {name:String}, now64(3, 'UTC'), {checksum:String})",
      { version: migration.version, name: migration.name, checksum: migrationChecksum(migration) },
    );
  const done: number[] = [];
  for (const migration of ordered) {
    const previous = applied.get(migration.version);
    const statements = migration.sql.flatMap(rewrite);
    if (previous !== undefined) {
      const [name] = previous.names;
      if (previous.names.length !== 1 || name !== migration.name) {
        throw new Error(
          `ClickHouse migration ${migration.version} was applied as "${previous.names.join('", "')}" but is now named "${migration.name}"`,
        );
      }
      if (previous.checksum === '') await record(migration);
      else if (previous.checksum !== migrationChecksum(migration))
        throw new Error(
          `ClickHouse migration ${migration.version} "${migration.name}" was changed after it was applied ` +
            `(its statements no longer match the checksum recorded then): restore its text and add a new migration instead`,
        );
      continue;
    }
    for (const statement of statements) await executor.command(statement);
    await record(migration);
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
