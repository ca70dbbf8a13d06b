"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.expectedParams = expectedParams;
exports.eventsJson = eventsJson;
exports.toStoredEvent = toStoredEvent;
exports.toStoreError = toStoreError;
const event_store_port_1 = require("../event-store.port");
const event_store_logger_1 = require("../event-store.logger");
/** Translation between the port's shapes and the SQL module's rows and parameters. */
function expectedParams(expected) {
    if (typeof expected !== 'number')
        return { expected, expectedRevision: null };
    if (!Number.isSafeInteger(expected) || expected < 0)
        throw new Error(`invalid expected revision: ${expected}`);
    return { expected: 'revision', expectedRevision: expected };
}
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** A batch is checked before it reaches the database: such mistakes are bugs, not outages. */
function eventsJson(events) {
    if (events.length === 0)
        throw new Error('append needs at least one event');
    const notUuid = events.find((e) => !UUID.test(e.id));
    if (notUuid)
        throw new Error(`event id is not a UUID: ${JSON.stringify(notUuid.id)}`);
    const ids = new Set(events.map((e) => e.id.toLowerCase()));
    if (ids.size !== events.length)
        throw new Error('append batch repeats an event id');
    return JSON.stringify(events.map((e) => ({ id: e.id, type: e.type, data: e.data, metadata: e.metadata ?? {} })));
}
function toStoredEvent(row) {
    return {
        id: row.event_id,
        type: row.type,
        data: row.data,
        metadata: row.metadata,
        streamId: row.stream_id,
        revision: Number(row.revision),
        position: { hi: BigInt(row.transaction_id), lo: BigInt(row.global_position) },
        recordedAt: row.recorded_at instanceof Date ? row.recorded_at : new Date(row.recorded_at),
    };
}
const PG_CONFLICT_CODES = new Set([
    '23505', // unique_violation: the same event id raced in from another stream's append
]);
/** Conflicts stay conflicts; anything else from the driver means the store failed: callers answer 503. */
function toStoreError(error, streamId, expected) {
    if (error instanceof event_store_port_1.VersionConflictError || error instanceof event_store_port_1.EventStoreUnavailableError)
        return error;
    const code = error?.code;
    if (streamId !== undefined && expected !== undefined && PG_CONFLICT_CODES.has(String(code))) {
        return new event_store_port_1.VersionConflictError(streamId, expected, 'unknown');
    }
    // Duck-typed: a rejection need not be an Error of this realm (WASM glue, vm sandboxes).
    const message = typeof error?.message === 'string' ? error.message : String(error);
    const suffix = typeof code === 'string' ? ` (${code})` : '';
    return new event_store_port_1.EventStoreUnavailableError(`event store unavailable: ${(0, event_store_logger_1.redactCredentials)(message)}${suffix}`, error);
}
//# sourceMappingURL=event-rows.js.map