import type { ReadAhead } from '../infrastructure/read-model/read-ahead';
import { accountKeys } from '../projections/accounts/accounts.projection';
import { trunkKeys } from '../projections/trunks/trunk-view';

type Resolver = (params: Record<string, string>, query: Record<string, unknown>) => ReadAhead | null;

/**
 * The GET routes whose handler reads exactly one read-model record named by the path: the
 * request gate reads it in its own round trip (credential, rate limit, this record), so these
 * routes cost one Redis round trip. The gateway lookup is the SIP gateway's per-call path.
 * Keyed by the registered route pattern; each handler uses the value only for the same key.
 */
const ROUTES: Record<string, Resolver> = {
  '/v1/accounts/:id': (params) => ({ kind: 'hash', key: accountKeys.account(params.id) }),
  // With as_of the trunk comes from its history in the event store instead.
  '/v1/trunks/:id': (params, query) =>
    query.as_of === undefined ? { kind: 'string', key: trunkKeys.trunk(params.id) } : null,
  '/v1/gateway/trunks/:sip_username': (params) => ({ kind: 'string', key: trunkKeys.gateway(params.sip_username) }),
};

export function readAheadFor(
  method: string,
  route: string | undefined,
  params: unknown,
  query: unknown,
): ReadAhead | undefined {
  if (method !== 'GET' || route === undefined) return undefined;
  const resolve = ROUTES[route];
  if (!resolve) return undefined;
  return resolve((params ?? {}) as Record<string, string>, (query ?? {}) as Record<string, unknown>) ?? undefined;
}
