import { DomainError } from '../shared/domain-error';
import type { Scope } from '../shared/api-key-scopes';
import { Principal } from '../shared/principal';

export type RoutePolicy =
  | { kind: 'public' }
  | { kind: 'scoped'; area: 'admin' | 'ingest' | 'gateway' | 'platform' | 'audit' | 'account' | 'any' };

const PUBLIC = new Set(['/healthz', '/readyz', '/v1/openapi.json']);
/** The browser pages (console and API reference) and their assets: files only, no data without a key. */
const PUBLIC_PAGES = /^\/(console|docs)(\/|$)/;

/**
 * Which scope a path needs, by its area. One table instead of a decorator per route, so no
 * route can be added without a policy.
 */
export function policyFor(path: string): RoutePolicy {
  if (PUBLIC.has(path) || PUBLIC_PAGES.test(path)) return { kind: 'public' };
  if (/^\/v1\/(accounts|api-keys)(\/|$)/.test(path)) return { kind: 'scoped', area: 'admin' };
  // Provider secrets in clear: the platform's gateway key only (docs/sip-gateway.md, "The agent lookup").
  if (/^\/v1\/gateway\/trunks\/[^/]*\/agent\/?$/.test(path)) return { kind: 'scoped', area: 'gateway' };
  // What belongs to no account: the platform's keys (admin or gateway) only.
  if (/^\/v1\/gateway\/rejections\/?$/.test(path)) return { kind: 'scoped', area: 'platform' };
  if (/^\/v1\/(ingest|gateway)(\/|$)/.test(path)) return { kind: 'scoped', area: 'ingest' };
  if (/^\/v1\/audit-events(\/|$)/.test(path)) return { kind: 'scoped', area: 'audit' };
  if (path.startsWith('/v1/')) return { kind: 'scoped', area: 'account' };
  return { kind: 'scoped', area: 'any' };
}

const ofRoute = new Map<string, RoutePolicy>();

/** policyFor of a registered route pattern (a bounded set), worked out once per pattern. */
export function policyOfRoute(pattern: string): RoutePolicy {
  let policy = ofRoute.get(pattern);
  if (policy === undefined) {
    policy = policyFor(pattern);
    ofRoute.set(pattern, policy);
  }
  return policy;
}

const READ_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Throws 403 forbidden when the principal's scopes do not cover the request. */
export function assertAllowed(
  principal: Principal,
  area: Exclude<RoutePolicy, { kind: 'public' }>['area'],
  method: string,
): void {
  const has = (scope: Scope) => principal.scopes.includes(scope);
  switch (area) {
    case 'any':
      return;
    case 'admin':
      if (has('admin')) return;
      throw new DomainError('forbidden', 'This endpoint needs a key with the admin scope');
    case 'ingest':
      // decisions.md: full is "everything of its account", which includes sending its calls.
      // gateway: the platform credential of a SIP gateway, for every account (docs/sip-gateway.md).
      if (has('ingest') || has('gateway') || (has('full') && principal.accountId !== null)) return;
      throw new DomainError('forbidden', 'This endpoint needs a key with the ingest, gateway (or full) scope');
    case 'gateway':
      if (principal.accountId === null && has('gateway')) return;
      throw new DomainError('forbidden', "This endpoint discloses a trunk's provider keys: it needs a gateway key");
    case 'platform':
      if (principal.accountId === null && (has('admin') || has('gateway'))) return;
      throw new DomainError(
        'forbidden',
        'This endpoint lists what belongs to no account: it needs an admin or gateway key',
      );
    case 'audit':
      // The audit log of the key's own account: an auditor's key (audit) or one that may do everything (full).
      if (principal.accountId !== null && (has('audit') || has('full'))) return;
      throw new DomainError('forbidden', 'This endpoint needs a key of an account with the audit (or full) scope');
    case 'account':
      if (principal.accountId === null)
        throw new DomainError(
          'forbidden',
          has('gateway')
            ? 'Gateway keys look up trunks and send records; use an account key here'
            : 'Admin keys manage accounts and keys; use an account key here',
        );
      if (has('full')) return;
      if (has('read') && READ_METHODS.has(method)) return;
      if (has('read')) throw new DomainError('forbidden', 'This key is read-only (scope read): writes need scope full');
      throw new DomainError('forbidden', 'This key cannot use this endpoint (needs scope full or read)');
  }
}
