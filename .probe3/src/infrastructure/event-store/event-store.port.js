"use strict";
/**
 * The event store port. Adapters: PostgreSQL (pg), PGlite (same SQL), EventStoreDB.
 * Every adapter runs test/contract/event-store.contract.ts.
 */
Object.defineProperty(exports, "__esModule", { value: true });
exports.EVENT_STORE = exports.EventStoreUnavailableError = exports.VersionConflictError = exports.encodePosition = void 0;
exports.comparePositions = comparePositions;
exports.decodePosition = decodePosition;
function comparePositions(a, b) {
    if (a.hi !== b.hi)
        return a.hi < b.hi ? -1 : 1;
    if (a.lo !== b.lo)
        return a.lo < b.lo ? -1 : 1;
    return 0;
}
const encodePosition = (p) => `${p.hi}:${p.lo}`;
exports.encodePosition = encodePosition;
function decodePosition(text) {
    const match = /^(\d+):(\d+)$/.exec(text);
    if (!match)
        throw new Error(`not a global position: ${text}`);
    return { hi: BigInt(match[1]), lo: BigInt(match[2]) };
}
/** Every adapter turns its native conflict into this one error. */
class VersionConflictError extends Error {
    streamId;
    expected;
    actual;
    constructor(streamId, expected, actual) {
        super(`version conflict on ${streamId}: expected ${String(expected)}, actual ${String(actual)}`);
        this.streamId = streamId;
        this.expected = expected;
        this.actual = actual;
        this.name = 'VersionConflictError';
    }
}
exports.VersionConflictError = VersionConflictError;
/** The store could not be reached or failed; callers answer 503, never lose acknowledged data. */
class EventStoreUnavailableError extends Error {
    cause;
    constructor(message, cause) {
        super(message);
        this.cause = cause;
        this.name = 'EventStoreUnavailableError';
    }
}
exports.EventStoreUnavailableError = EventStoreUnavailableError;
exports.EVENT_STORE = Symbol('EventStore');
//# sourceMappingURL=event-store.port.js.map