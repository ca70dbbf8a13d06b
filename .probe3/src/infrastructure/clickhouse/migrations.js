"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.runMigrations = runMigrations;
const clickhouse_port_1 = require("./clickhouse.port");
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
async function runMigrations(executor, migrations, logger = clickhouse_port_1.silentClickHouseLogger) {
    const ordered = checkMigrations(migrations);
    await executor.command(CREATE_MIGRATIONS_TABLE);
    const recorded = await executor.query('SELECT DISTINCT version, name FROM schema_migrations ORDER BY version');
    const applied = new Map(recorded.map((row) => [row.version, row.name]));
    const done = [];
    for (const migration of ordered) {
        const previous = applied.get(migration.version);
        if (previous !== undefined) {
            if (previous !== migration.name) {
                throw new Error(`ClickHouse migration ${migration.version} was applied as "${previous}" but is now named "${migration.name}"`);
            }
            continue;
        }
        for (const statement of migration.sql)
            await executor.command(statement);
        await executor.command("INSERT INTO schema_migrations (version, name, applied_at) VALUES ({version:UInt32}, {name:String}, now64(3, 'UTC'))", { version: migration.version, name: migration.name });
        logger.info({ version: migration.version, name: migration.name }, 'ClickHouse migration applied');
        done.push(migration.version);
    }
    return done;
}
function checkMigrations(migrations) {
    const seen = new Set();
    for (const { version } of migrations) {
        if (!Number.isInteger(version) || version < 1)
            throw new Error(`ClickHouse migration version must be a positive integer: ${version}`);
        if (seen.has(version))
            throw new Error(`duplicate ClickHouse migration version ${version}`);
        seen.add(version);
    }
    return [...migrations].sort((a, b) => a.version - b.version);
}
//# sourceMappingURL=migrations.js.map