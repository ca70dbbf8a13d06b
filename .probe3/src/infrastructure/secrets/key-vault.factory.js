"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.createKeyVault = createKeyVault;
const eventstoredb_event_store_1 = require("../event-store/eventstoredb/eventstoredb.event-store");
const postgres_event_store_1 = require("../event-store/postgres/postgres.event-store");
const eventstoredb_key_vault_1 = require("./eventstoredb.key-vault");
const sql_key_vault_1 = require("./sql.key-vault");
/**
 * The vault lives in the same store as the events, on the store's own connection: PGlite allows
 * one instance per directory, and one place to back up (and to shred from) is simpler to run.
 * The vault is closed with the store.
 */
async function createKeyVault(store) {
    if (store instanceof postgres_event_store_1.PostgresEventStore) {
        await (0, sql_key_vault_1.migrateKeyVault)(store.sql);
        return new sql_key_vault_1.SqlKeyVault(store.sql);
    }
    if (store instanceof eventstoredb_event_store_1.EventStoreDbEventStore)
        return new eventstoredb_key_vault_1.EventStoreDbKeyVault(store.native);
    throw new Error(`no key vault for event store ${store.constructor.name}`);
}
//# sourceMappingURL=key-vault.factory.js.map