"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.envelope = envelope;
exports.envelopeOf = envelopeOf;
exports.domainErrorFromFramework = domainErrorFromFramework;
const domain_error_1 = require("../../shared/domain-error");
function envelope(code, message, extra = {}) {
    return { error: { code, message, status: domain_error_1.STATUS_OF[code], ...extra } };
}
function envelopeOf(error, requestId) {
    const extra = {};
    if (error.details.param !== undefined)
        extra.param = error.details.param;
    if (error.details.retryAt !== undefined)
        extra.retry_after = error.details.retryAt;
    if (error.status >= 500 && requestId)
        extra.request_id = requestId;
    return envelope(error.code, error.message, extra);
}
/** Fastify's own errors (parsers, limits) carry a statusCode and an FST_ code. */
const FASTIFY_CODES = {
    FST_ERR_CTP_BODY_TOO_LARGE: ['payload_too_large', 'Request body is too large'],
    FST_ERR_CTP_INVALID_MEDIA_TYPE: ['unsupported_media_type', 'Unsupported Content-Type: send application/json'],
    FST_ERR_CTP_INVALID_CONTENT_LENGTH: ['missing_required_field', 'Content-Length does not match the body'],
    FST_ERR_CTP_EMPTY_JSON_BODY: ['missing_required_field', 'Request body is empty: send a JSON object'],
    FST_ERR_CTP_INVALID_JSON_BODY: ['missing_required_field', 'Request body is not valid JSON'],
    FST_ERR_BAD_URL: ['missing_required_field', 'Malformed URL'],
    FST_ERR_ASYNC_CONSTRAINT: ['missing_required_field', 'Malformed request'],
};
function domainErrorFromFramework(error) {
    const known = error.code ? FASTIFY_CODES[error.code] : undefined;
    if (known)
        return new domain_error_1.DomainError(known[0], known[1]);
    const status = error.statusCode;
    if (status === 413)
        return new domain_error_1.DomainError('payload_too_large', 'Request body is too large');
    if (status === 415)
        return new domain_error_1.DomainError('unsupported_media_type', 'Unsupported Content-Type: send application/json');
    if (status === 431)
        return new domain_error_1.DomainError('header_fields_too_large', 'Request headers are too large');
    if (status !== undefined && status >= 400 && status < 500) {
        return new domain_error_1.DomainError('missing_required_field', 'Malformed request');
    }
    return null;
}
//# sourceMappingURL=error-envelope.js.map