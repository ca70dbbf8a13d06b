"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.requestIdOf = requestIdOf;
const node_crypto_1 = require("node:crypto");
const kRequestId = Symbol('requestId');
/** A client's id is echoed only when it is short and plain, so logs cannot be forged with it. */
const SANE = /^[A-Za-z0-9._:-]{1,128}$/;
/**
 * One id per raw request: Fastify's request.id, the X-Request-Id header, and the `request_id`
 * of every log line written for the request.
 */
function requestIdOf(raw) {
    const holder = raw;
    if (holder[kRequestId] === undefined) {
        const given = raw.headers['x-request-id'];
        holder[kRequestId] = typeof given === 'string' && SANE.test(given) ? given : (0, node_crypto_1.randomUUID)();
    }
    return holder[kRequestId];
}
//# sourceMappingURL=request-id.js.map