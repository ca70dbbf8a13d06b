"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.EventStoreDbEventStore = void 0;
const db_client_1 = require("@eventstore/db-client");
const event_store_port_1 = require("../event-store.port");
const event_store_logger_1 = require("../event-store.logger");
const eventstoredb_mapping_1 = require("./eventstoredb.mapping");
const eventstoredb_subscription_1 = require("./eventstoredb.subscription");
/** Any stream name works for a liveness probe; reading a missing stream is the cheapest call. */
const PING_STREAM = 'trunkline-ping';
/**
 * A thin adapter over @eventstore/db-client. EventStoreDB enforces expected versions and orders
 * $all by commit itself; this class only translates shapes and errors.
 */
class EventStoreDbEventStore {
    client;
    logger;
    subscriptions = new Set();
    constructor(client, logger = event_store_logger_1.silentLogger) {
        this.client = client;
        this.logger = logger;
    }
    /** The client, shared with the key vault. */
    get native() {
        return this.client;
    }
    /** The client (v6) knows esdb:// and esdb+discover://; kurrentdb:// is the same protocol renamed. */
    static connect(url, logger) {
        const esdbUrl = url.replace(/^kurrentdb(\+discover)?:\/\//i, (_m, discover) => `esdb${discover ?? ''}://`);
        try {
            return new EventStoreDbEventStore(db_client_1.EventStoreDBClient.connectionString(esdbUrl), logger);
        }
        catch (error) {
            throw (0, eventstoredb_mapping_1.toStoreError)(error); // a malformed URL would otherwise be echoed with its password
        }
    }
    async append(streamId, events, expected) {
        if (events.length === 0)
            throw new Error('append needs at least one event');
        const expectedRevision = (0, eventstoredb_mapping_1.toExpectedRevision)(expected);
        try {
            const result = await this.client.appendToStream(streamId, events.map(eventstoredb_mapping_1.toEventData), { expectedRevision });
            return { nextExpectedVersion: Number(result.nextExpectedRevision), position: (0, eventstoredb_mapping_1.toGlobalPosition)(result.position) };
        }
        catch (error) {
            throw (0, eventstoredb_mapping_1.toStoreError)(error, streamId, expected);
        }
    }
    async readStream(streamId, options = {}) {
        if (options.maxCount === 0)
            return [];
        const events = [];
        try {
            const read = this.client.readStream(streamId, {
                fromRevision: BigInt(options.fromRevision ?? 0),
                maxCount: options.maxCount,
                direction: db_client_1.FORWARDS,
            });
            for await (const resolved of read)
                if (resolved.event)
                    events.push((0, eventstoredb_mapping_1.toStoredEvent)(resolved.event));
            return events;
        }
        catch (error) {
            if (error instanceof db_client_1.StreamNotFoundError)
                return [];
            throw (0, eventstoredb_mapping_1.toStoreError)(error);
        }
    }
    /**
     * Reading $all from a position includes the event at it, and system events count towards
     * maxCount, so this pages until it has maxCount of ours or reaches the end.
     */
    async readAll(options) {
        const events = [];
        let cursor = options.after;
        try {
            while (events.length < options.maxCount) {
                const pageSize = options.maxCount - events.length + 1;
                const from = cursor ? (0, eventstoredb_mapping_1.toClientPosition)(cursor) : db_client_1.START;
                let seen = 0;
                for await (const resolved of this.client.readAll({ fromPosition: from, maxCount: pageSize, direction: db_client_1.FORWARDS })) {
                    seen += 1;
                    const event = resolved.event;
                    if (!event)
                        continue;
                    const position = (0, eventstoredb_mapping_1.toGlobalPosition)(event.position);
                    if (cursor && (0, event_store_port_1.comparePositions)(position, cursor) <= 0)
                        continue;
                    cursor = position;
                    if (!(0, eventstoredb_mapping_1.isSystemEvent)(event))
                        events.push((0, eventstoredb_mapping_1.toStoredEvent)(event));
                    if (events.length === options.maxCount)
                        break;
                }
                if (seen < pageSize)
                    break;
            }
            return events;
        }
        catch (error) {
            throw (0, eventstoredb_mapping_1.toStoreError)(error);
        }
    }
    subscribe(options, handler) {
        const subscription = new eventstoredb_subscription_1.EventStoreDbSubscription(this.client, options.after, handler, this.logger);
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
        try {
            for await (const resolved of this.client.readStream(PING_STREAM, { maxCount: 1 }))
                void resolved;
        }
        catch (error) {
            if (!(error instanceof db_client_1.StreamNotFoundError))
                throw (0, eventstoredb_mapping_1.toStoreError)(error);
        }
    }
    async close() {
        await Promise.all([...this.subscriptions].map((s) => s.stop()));
        await this.client.dispose();
    }
}
exports.EventStoreDbEventStore = EventStoreDbEventStore;
//# sourceMappingURL=eventstoredb.event-store.js.map