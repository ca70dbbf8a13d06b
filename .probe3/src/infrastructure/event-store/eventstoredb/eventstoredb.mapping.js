"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.isSystemEvent = exports.toClientPosition = exports.toGlobalPosition = void 0;
exports.toExpectedRevision = toExpectedRevision;
exports.toEventData = toEventData;
exports.toStoredEvent = toStoredEvent;
exports.toStoreError = toStoreError;
const db_client_1 = require("@eventstore/db-client");
const event_store_port_1 = require("../event-store.port");
const event_store_logger_1 = require("../event-store.logger");
/** Translation between the port's shapes and @eventstore/db-client's. */
function toExpectedRevision(expected) {
    switch (expected) {
        case 'any':
            return db_client_1.ANY;
        case 'no_stream':
            return db_client_1.NO_STREAM;
        case 'stream_exists':
            return db_client_1.STREAM_EXISTS;
        default:
            if (!Number.isSafeInteger(expected) || expected < 0)
                throw new Error(`invalid expected revision: ${expected}`);
            return BigInt(expected);
    }
}
function toEventData(event) {
    return (0, db_client_1.jsonEvent)({
        id: event.id,
        type: event.type,
        data: event.data,
        metadata: (event.metadata ?? {}),
    });
}
/** EventStoreDB's (commit, prepare) log position: commit order, so readers never skip. */
const toGlobalPosition = (position) => 
// Servers before 22.6 omit positions on stream reads; those events sort first.
position ? { hi: position.commit, lo: position.prepare } : { hi: 0n, lo: 0n };
exports.toGlobalPosition = toGlobalPosition;
const toClientPosition = (position) => ({ commit: position.hi, prepare: position.lo });
exports.toClientPosition = toClientPosition;
/** System events ($-prefixed types: stream metadata, links, stats) are not ours to deliver. */
const isSystemEvent = (event) => event.type.startsWith('$');
exports.isSystemEvent = isSystemEvent;
function toStoredEvent(event) {
    const metadata = event.metadata;
    return {
        id: event.id,
        type: event.type,
        data: event.data,
        metadata: isPlainObject(metadata) ? metadata : {},
        streamId: event.streamId,
        revision: Number(event.revision),
        position: (0, exports.toGlobalPosition)(event.position),
        recordedAt: event.created,
    };
}
const isPlainObject = (value) => typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Uint8Array);
/** Conflicts become VersionConflictError; every other client error means the store failed. */
function toStoreError(error, streamId, expected) {
    if (error instanceof event_store_port_1.VersionConflictError || error instanceof event_store_port_1.EventStoreUnavailableError)
        return error;
    if (error instanceof db_client_1.WrongExpectedVersionError && streamId !== undefined && expected !== undefined) {
        const actual = error.actualVersion;
        return new event_store_port_1.VersionConflictError(streamId, expected, typeof actual === 'bigint' ? Number(actual) : actual === db_client_1.NO_STREAM ? 'no_stream' : 'unknown');
    }
    const message = error instanceof Error ? error.message : String(error);
    return new event_store_port_1.EventStoreUnavailableError(`event store unavailable: ${(0, event_store_logger_1.redactCredentials)(message)}`, error);
}
//# sourceMappingURL=eventstoredb.mapping.js.map