"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.PgNotifications = void 0;
const pg_1 = require("pg");
const event_store_sql_1 = require("./event-store.sql");
const RECONNECT_DELAY_MS = 1000;
class PgNotifications {
    sql;
    connection;
    schema;
    logger;
    sending = false;
    pending = false;
    /** The listening connection, or the one being opened. */
    current;
    listening = false;
    closed = false;
    reconnectTimer;
    onSignal = () => undefined;
    constructor(sql, connection, schema, logger) {
        this.sql = sql;
        this.connection = connection;
        this.schema = schema;
        this.logger = logger;
    }
    /**
     * NOTIFY runs after the append's commit, not inside it: a notifying commit holds a
     * cluster-wide lock through its WAL flush, which would serialise every append. Coalesced: at
     * most one in flight, and one more after it if appends committed meanwhile.
     */
    publish() {
        if (this.closed)
            return;
        if (this.sending) {
            this.pending = true;
            return;
        }
        this.sending = true;
        this.sql
            .query(event_store_sql_1.notify.text, event_store_sql_1.notify.values({ schema: this.schema }))
            .catch((error) => this.logger.warn({ err: error }, 'event store: NOTIFY failed; other processes fall back to polling'))
            .finally(() => {
            this.sending = false;
            if (this.pending) {
                this.pending = false;
                this.publish();
            }
        });
    }
    listen(onSignal) {
        if (this.listening || this.closed)
            return;
        this.listening = true;
        this.onSignal = onSignal;
        void this.connect();
    }
    async close() {
        this.closed = true;
        clearTimeout(this.reconnectTimer);
        const current = this.current;
        this.current = undefined;
        await current?.end().catch(() => undefined);
    }
    async connect() {
        const client = new pg_1.Client({ ...this.connection, application_name: 'trunkline-event-store-listener' });
        this.current = client;
        client.on('notification', (message) => {
            if (message.channel === event_store_sql_1.NOTIFY_CHANNEL && message.payload === this.schema)
                this.onSignal();
        });
        client.on('error', (error) => this.reconnectLater(client, error));
        client.on('end', () => this.reconnectLater(client, new Error('listener connection ended')));
        try {
            await client.connect();
            await client.query(event_store_sql_1.LISTEN);
            if (this.closed)
                return; // close() has ended it
            this.onSignal(); // notifications sent while we were not listening are lost: catch up once
        }
        catch (error) {
            this.reconnectLater(client, error);
        }
    }
    reconnectLater(client, error) {
        if (this.closed || client !== this.current)
            return;
        this.current = undefined;
        client.end().catch(() => undefined);
        this.logger.warn({ err: error }, 'event store: LISTEN connection lost; polling until it is back');
        this.reconnectTimer = setTimeout(() => {
            this.reconnectTimer = undefined;
            void this.connect();
        }, RECONNECT_DELAY_MS);
    }
}
exports.PgNotifications = PgNotifications;
//# sourceMappingURL=pg-notifications.js.map