"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.policyFor = policyFor;
exports.assertAllowed = assertAllowed;
const domain_error_1 = require("../../shared/domain-error");
const PUBLIC = new Set(['/healthz', '/readyz', '/v1/openapi.json']);
/**
 * Which scope a path needs, by its area. One table instead of a decorator per route, so no
 * route can be added without a policy.
 */
function policyFor(path) {
    if (PUBLIC.has(path))
        return { kind: 'public' };
    if (/^\/v1\/(accounts|api-keys)(\/|$)/.test(path))
        return { kind: 'scoped', area: 'admin' };
    if (/^\/v1\/(ingest|gateway)(\/|$)/.test(path))
        return { kind: 'scoped', area: 'ingest' };
    if (path.startsWith('/v1/'))
        return { kind: 'scoped', area: 'account' };
    return { kind: 'scoped', area: 'any' };
}
const READ_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
/** Throws 403 forbidden when the principal's scopes do not cover the request. */
function assertAllowed(principal, area, method) {
    const has = (scope) => principal.scopes.includes(scope);
    switch (area) {
        case 'any':
            return;
        case 'admin':
            if (has('admin'))
                return;
            throw new domain_error_1.DomainError('forbidden', 'This endpoint needs a key with the admin scope');
        case 'ingest':
            if (has('ingest'))
                return;
            throw new domain_error_1.DomainError('forbidden', 'This endpoint needs a key with the ingest scope');
        case 'account':
            if (principal.accountId === null)
                throw new domain_error_1.DomainError('forbidden', 'Admin keys manage accounts and keys; use an account key here');
            if (has('full'))
                return;
            if (has('read') && READ_METHODS.has(method))
                return;
            if (has('read'))
                throw new domain_error_1.DomainError('forbidden', 'This key is read-only (scope read): writes need scope full');
            throw new domain_error_1.DomainError('forbidden', 'This key cannot use this endpoint (needs scope full or read)');
    }
}
//# sourceMappingURL=route-policy.js.map