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
exports.PostgresEventStore = void 0;
exports.migrate = migrate;
const event_store_port_1 = require("../event-store.port");
const event_store_logger_1 = require("../event-store.logger");
const sql = __importStar(require("./event-store.sql"));
const event_rows_1 = require("./event-rows");
const polling_subscription_1 = require("./polling-subscription");
/** Creates the schema, tables and append function; safe to run from several processes at once. */
async function migrate(client, schema) {
    try {
        await client.transaction(async (tx) => {
            await tx.query(sql.LOCK_MIGRATIONS);
            await tx.query(sql.createSchema(schema));
            for (const ddl of sql.SCHEMA_DDL)
                await tx.query(ddl);
        });
    }
    catch (error) {
        throw (0, event_rows_1.toStoreError)(error);
    }
}
const DEFAULT_BATCH_SIZE = 500;
const START = { afterTransaction: '0', afterPosition: '0' };
/** The event store over PostgreSQL or PGlite: the same SQL, one round trip per append. */
class PostgresEventStore {
    client;
    options;
    changes = new polling_subscription_1.ChangeSignal();
    subscriptions = new Set();
    logger;
    closed = false;
    constructor(client, options = {}) {
        this.client = client;
        this.options = options;
        this.logger = options.logger ?? event_store_logger_1.silentLogger;
    }
    /** The connection, shared with the key vault (PGlite allows one instance per directory). */
    get sql() {
        return this.client;
    }
    async append(streamId, events, expected) {
        const params = { streamId, ...(0, event_rows_1.expectedParams)(expected), eventsJson: (0, event_rows_1.eventsJson)(events) };
        const [row] = await this.run(sql.appendEvents, params, streamId, expected);
        if (row.outcome === 'conflict') {
            const actual = row.stream_version === null ? 'no_stream' : Number(row.stream_version);
            throw new event_store_port_1.VersionConflictError(streamId, expected, actual);
        }
        if (row.outcome === 'appended') {
            this.changes.fire();
            this.options.crossProcess?.publish();
        }
        return {
            nextExpectedVersion: Number(row.stream_version),
            position: { hi: BigInt(row.transaction_id ?? 0), lo: BigInt(row.global_position ?? 0) },
        };
    }
    async readStream(streamId, options = {}) {
        const params = { streamId, fromRevision: options.fromRevision ?? 0, maxCount: options.maxCount ?? null };
        return (await this.run(sql.readStream, params)).map(event_rows_1.toStoredEvent);
    }
    async readAll(options) {
        const after = options.after ? afterParams(options.after) : START;
        return (await this.run(sql.readAll, { ...after, maxCount: options.maxCount })).map(event_rows_1.toStoredEvent);
    }
    subscribe(options, handler) {
        if (this.closed)
            throw new Error('event store is closed'); // its loop would retry forever
        this.options.crossProcess?.listen(() => this.changes.fire());
        const subscription = new polling_subscription_1.PollingSubscription({
            after: options.after,
            batchSize: options.batchSize ?? DEFAULT_BATCH_SIZE,
            idlePollMs: this.options.idlePollMs ?? 250,
            readAll: (after, maxCount) => this.readAll({ after, maxCount }),
            changes: this.changes,
            handler,
            logger: this.logger,
        });
        const handle = {
            stop: async () => {
                await subscription.stop();
                this.subscriptions.delete(handle);
            },
        };
        this.subscriptions.add(handle);
        return handle;
    }
    async ping() {
        await this.run(sql.ping, {});
    }
    async close() {
        this.closed = true;
        await Promise.all([...this.subscriptions].map((s) => s.stop()));
        await this.options.crossProcess?.close();
        await this.client.close();
    }
    async run(statement, params, streamId, expected) {
        try {
            return (await this.client.query(statement.text, statement.values(params))).rows;
        }
        catch (error) {
            throw (0, event_rows_1.toStoreError)(error, streamId, expected);
        }
    }
}
exports.PostgresEventStore = PostgresEventStore;
const afterParams = (p) => ({ afterTransaction: p.hi.toString(), afterPosition: p.lo.toString() });
//# sourceMappingURL=postgres.event-store.js.map