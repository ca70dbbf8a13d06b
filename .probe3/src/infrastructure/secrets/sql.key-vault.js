"use strict";
var __createBinding = (this && this.__createBinding) || (Object.create ? (function(o, m, k, k2) {
    if (k2 === undefined) k2 = k;
    var desc = Object.getOwnPropertyDescriptor(m, k);
    if (!desc || ("get" in desc ? !m.__esModule : desc.writable || desc.configurable)) {
      desc = { enumerable: true, get: function() { return m[k]; } };
    }
    Object.defineProperty(o, k2, desc);
}) : (function(o, m, k, k2) {
    if (k2 === undefined) k2 = k;
    o[k2] = m[k];
}));
var __setModuleDefault = (this && this.__setModuleDefault) || (Object.create ? (function(o, v) {
    Object.defineProperty(o, "default", { enumerable: true, value: v });
}) : function(o, v) {
    o["default"] = v;
});
var __importStar = (this && this.__importStar) || (function () {
    var ownKeys = function(o) {
        ownKeys = Object.getOwnPropertyNames || function (o) {
            var ar = [];
            for (var k in o) if (Object.prototype.hasOwnProperty.call(o, k)) ar[ar.length] = k;
            return ar;
        };
        return ownKeys(o);
    };
    return function (mod) {
        if (mod && mod.__esModule) return mod;
        var result = {};
        if (mod != null) for (var k = ownKeys(mod), i = 0; i < k.length; i++) if (k[i] !== "default") __createBinding(result, mod, k[i]);
        __setModuleDefault(result, mod);
        return result;
    };
})();
Object.defineProperty(exports, "__esModule", { value: true });
exports.SqlKeyVault = void 0;
exports.migrateKeyVault = migrateKeyVault;
const sql = __importStar(require("./key-vault.sql"));
const event_rows_1 = require("../event-store/postgres/event-rows");
const key_vault_port_1 = require("./key-vault.port");
/** Creates the data_keys table in the connection's schema; safe to run from several processes at once. */
async function migrateKeyVault(client) {
    try {
        await client.transaction(async (tx) => {
            await tx.query(sql.LOCK_MIGRATIONS);
            for (const ddl of sql.SCHEMA_DDL)
                await tx.query(ddl);
        });
    }
    catch (error) {
        throw (0, event_rows_1.toStoreError)(error);
    }
}
/**
 * The key vault over PostgreSQL or PGlite, on the event store's own connection (PGlite allows
 * one instance per directory). Storage failures surface as EventStoreUnavailableError (503).
 */
class SqlKeyVault {
    client;
    constructor(client) {
        this.client = client;
    }
    async put(ownerId, wrappedKey) {
        (0, key_vault_port_1.checkVaultArgs)(ownerId, wrappedKey);
        const inserted = await this.run(sql.insertKey, { ownerId, wrappedKey });
        if (inserted.length > 0)
            return;
        // Lost to an existing row (a retry, a concurrent put, or a tombstone): a separate statement,
        // so under READ COMMITTED it sees the row that won even if it committed after our insert began.
        const current = await this.get(ownerId);
        if (current === wrappedKey)
            return;
        throw new key_vault_port_1.DataKeyConflictError(ownerId, current === 'destroyed' ? 'destroyed' : 'exists');
    }
    async get(ownerId) {
        (0, key_vault_port_1.checkVaultArgs)(ownerId);
        const [row] = await this.run(sql.selectKey, { ownerId });
        if (!row)
            return null;
        return row.destroyed_at !== null || row.wrapped_key === null ? 'destroyed' : row.wrapped_key;
    }
    async destroy(ownerId) {
        (0, key_vault_port_1.checkVaultArgs)(ownerId);
        await this.run(sql.destroyKey, { ownerId });
    }
    async run(statement, params) {
        try {
            return (await this.client.query(statement.text, statement.values(params))).rows;
        }
        catch (error) {
            throw (0, event_rows_1.toStoreError)(error);
        }
    }
}
exports.SqlKeyVault = SqlKeyVault;
//# sourceMappingURL=sql.key-vault.js.map