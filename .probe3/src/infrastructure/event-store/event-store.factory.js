"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.DEFAULT_EVENT_STORE_SCHEMA = void 0;
exports.createEventStore = createEventStore;
const promises_1 = require("node:fs/promises");
const node_path_1 = require("node:path");
const pglite_1 = require("@electric-sql/pglite");
const pg_1 = require("pg");
const event_store_logger_1 = require("./event-store.logger");
const eventstoredb_event_store_1 = require("./eventstoredb/eventstoredb.event-store");
const event_store_sql_1 = require("./postgres/event-store.sql");
const event_rows_1 = require("./postgres/event-rows");
const pg_notifications_1 = require("./postgres/pg-notifications");
const postgres_event_store_1 = require("./postgres/postgres.event-store");
const sql_client_1 = require("./postgres/sql-client");
exports.DEFAULT_EVENT_STORE_SCHEMA = 'event_store';
const ESDB_SCHEMES = new Set(['esdb', 'esdb+discover', 'kurrentdb', 'kurrentdb+discover']);
/** Picks the adapter from the URL and runs the SQL adapters' migrations before returning. */
async function createEventStore(options) {
    const logger = options.logger ?? event_store_logger_1.silentLogger;
    const schema = (0, event_store_sql_1.checkSchemaName)(options.schema ?? exports.DEFAULT_EVENT_STORE_SCHEMA);
    const url = options.url?.trim();
    if (!url)
        return openPglite((0, node_path_1.join)(options.dataDir, 'eventstore'), schema, logger);
    const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(url)?.[1]?.toLowerCase();
    if (scheme === 'postgres' || scheme === 'postgresql')
        return openPostgres(url, schema, logger, options.poolSize);
    if (scheme !== undefined && ESDB_SCHEMES.has(scheme))
        return openEventStoreDb(url, logger);
    throw new Error(`unsupported event store URL scheme: ${scheme ?? '(none)'}`);
}
async function openPostgres(url, schema, logger, poolSize = 20) {
    const connection = {
        connectionString: url,
        options: (0, event_store_sql_1.searchPathOption)(schema),
        application_name: 'trunkline-event-store',
        connectionTimeoutMillis: 5000,
    };
    const pool = new pg_1.Pool({ ...connection, max: poolSize });
    // Without a listener, an idle connection dropped by the server would crash the process.
    pool.on('error', (error) => logger.warn({ err: error }, 'event store: idle PostgreSQL connection failed'));
    const client = new sql_client_1.PgPoolSqlClient(pool);
    await migrateOrClose(client, schema);
    logger.info({ adapter: 'postgres', schema }, 'event store ready');
    const crossProcess = new pg_notifications_1.PgNotifications(client, connection, schema, logger);
    return new postgres_event_store_1.PostgresEventStore(client, { logger, crossProcess });
}
async function openPglite(dir, schema, logger) {
    let db;
    try {
        await (0, promises_1.mkdir)(dir, { recursive: true });
        db = await pglite_1.PGlite.create(dir);
    }
    catch (error) {
        throw (0, event_rows_1.toStoreError)(error);
    }
    const client = new sql_client_1.PgliteSqlClient(db);
    await migrateOrClose(client, schema, (0, event_store_sql_1.setSearchPath)(schema));
    logger.info({ adapter: 'pglite', dir, schema }, 'event store ready');
    return new postgres_event_store_1.PostgresEventStore(client, { logger });
}
async function openEventStoreDb(url, logger) {
    const store = eventstoredb_event_store_1.EventStoreDbEventStore.connect(url, logger);
    logger.info({ adapter: 'eventstoredb' }, 'event store ready');
    return store;
}
async function migrateOrClose(client, schema, setup) {
    try {
        if (setup)
            await client.query(setup);
        await (0, postgres_event_store_1.migrate)(client, schema);
    }
    catch (error) {
        await client.close().catch(() => undefined);
        throw (0, event_rows_1.toStoreError)(error);
    }
}
//# sourceMappingURL=event-store.factory.js.map