"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.DomainError = exports.STATUS_OF = void 0;
exports.invalidField = invalidField;
exports.notFound = notFound;
exports.STATUS_OF = {
    missing_required_field: 400,
    invalid_sip_username: 400,
    invalid_params: 400,
    unauthorized: 401,
    missing_authentication: 401,
    invalid_provider_credentials: 401,
    forbidden: 403,
    not_found: 404,
    method_not_allowed: 405,
    conflict: 409,
    precondition_failed: 412,
    payload_too_large: 413,
    unsupported_media_type: 415,
    header_fields_too_large: 431,
    rate_limit_exceeded: 429,
    internal_error: 500,
    service_unavailable: 503,
    provider_unavailable: 503,
};
/** retryAfterSeconds: how long to wait (Retry-After); retryAt: the Unix second it ends (429 body). */
class DomainError extends Error {
    code;
    details;
    constructor(code, message, details = {}) {
        super(message);
        this.code = code;
        this.details = details;
        this.name = 'DomainError';
    }
    get status() {
        return exports.STATUS_OF[this.code];
    }
}
exports.DomainError = DomainError;
/** A malformed field of a request body, named in `error.param`. */
function invalidField(param, message) {
    return new DomainError('missing_required_field', message, { param });
}
function notFound(what) {
    return new DomainError('not_found', `${what} not found`);
}
//# sourceMappingURL=domain-error.js.map