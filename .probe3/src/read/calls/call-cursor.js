"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.filterFingerprint = filterFingerprint;
exports.encodeCursor = encodeCursor;
exports.decodeCursor = decodeCursor;
const node_crypto_1 = require("node:crypto");
const domain_error_1 = require("../../shared/domain-error");
/** A cursor belongs to one set of filters: reusing it with others would skip or repeat calls. */
function filterFingerprint(q) {
    const parts = [q.trunk_id, q.status, q.start_date, q.end_date, q.from, q.to, q.direction].map((p) => p ?? '');
    return (0, node_crypto_1.createHash)('sha256').update(parts.join('\u0000')).digest('base64url').slice(0, 10);
}
function encodeCursor(cursor, fingerprint) {
    return Buffer.from(JSON.stringify([cursor.startMs, cursor.callId, fingerprint])).toString('base64url');
}
function decodeCursor(text, fingerprint) {
    try {
        const [startMs, callId, print] = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
        if (typeof startMs !== 'number' || !Number.isSafeInteger(startMs) || typeof callId !== 'string' || callId.length > 100)
            throw new Error('shape');
        if (print !== fingerprint)
            throw new domain_error_1.DomainError('invalid_params', 'cursor was issued for other filters', { param: 'cursor' });
        return { startMs, callId };
    }
    catch (error) {
        if (error instanceof domain_error_1.DomainError)
            throw error;
        throw new domain_error_1.DomainError('invalid_params', 'cursor is not a cursor this API returned', { param: 'cursor' });
    }
}
//# sourceMappingURL=call-cursor.js.map