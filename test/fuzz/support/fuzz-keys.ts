import fc from 'fast-check';
import { policyFor } from '../../../src/access/route-policy';
import type { FuzzWorld, Owner } from './fuzz-world';
import type { Operation } from './openapi-operations';
import type { PlanKind } from './request-plan';

/**
 * The key a request carries: by the route's policy (the app's own table, so new routes get the
 * right scope), mostly this account's, sometimes the other account's; for `auth` plans every kind
 * of bad or wrong credential.
 */
export function keyArbitrary(
  op: Operation,
  world: FuzzWorld,
  kind: PlanKind,
): fc.Arbitrary<{ label: string; owner: Owner; headers: Record<string, string> }> {
  const bearer = (label: string, key: string, owner: Owner = 'own') => ({
    label,
    owner,
    headers: { authorization: `Bearer ${key}` },
  });
  const policy = policyFor(op.path);
  const k = world.keys;
  if (kind === 'auth') {
    const other = k.own.full.startsWith('sk_live_') ? 'sk_test_' : 'sk_live_';
    return fc.constantFrom(
      { label: 'none', owner: 'own' as Owner, headers: {} },
      {
        label: 'basic',
        owner: 'own' as Owner,
        headers: { authorization: `Basic ${Buffer.from('a:b').toString('base64')}` },
      },
      bearer('malformed', 'sk_live_short'),
      bearer('unknown', `sk_live_${'Z'.repeat(32)}`),
      bearer('other-env', `${other}${'A'.repeat(32)}`),
      bearer('revoked', k.revoked),
      bearer('expired', k.expired),
      bearer('read', k.own.read),
      bearer('ingest', k.own.ingest),
      bearer('full', k.own.full),
      bearer('admin', k.admin),
    );
  }
  if (policy.kind === 'public') return fc.constant({ label: 'none', owner: 'own' as Owner, headers: {} });
  switch (policy.area) {
    case 'admin':
      return fc.constant(bearer('admin', k.admin));
    // Platform keys serve every account: the fuzzer's trunks of both accounts are theirs to read.
    case 'gateway':
      return fc.constant(bearer('gateway', k.gateway));
    case 'platform':
      return fc.constantFrom(bearer('admin', k.admin), bearer('gateway', k.gateway));
    case 'ingest':
      return fc.oneof(
        { arbitrary: fc.constant(bearer('ingest', k.own.ingest)), weight: 9 },
        { arbitrary: fc.constant(bearer('other-ingest', k.other.ingest, 'other')), weight: 1 },
      );
    case 'audit':
      return fc.oneof(
        { arbitrary: fc.constant(bearer('audit', k.own.audit)), weight: 5 },
        { arbitrary: fc.constant(bearer('full', k.own.full)), weight: 4 },
        { arbitrary: fc.constant(bearer('other-full', k.other.full, 'other')), weight: 1 },
      );
    default:
      return op.method === 'GET'
        ? fc.oneof(
            { arbitrary: fc.constant(bearer('full', k.own.full)), weight: 6 },
            { arbitrary: fc.constant(bearer('read', k.own.read)), weight: 3 },
            { arbitrary: fc.constant(bearer('other-full', k.other.full, 'other')), weight: 1 },
          )
        : fc.oneof(
            { arbitrary: fc.constant(bearer('full', k.own.full)), weight: 9 },
            { arbitrary: fc.constant(bearer('other-full', k.other.full, 'other')), weight: 1 },
          );
  }
}
