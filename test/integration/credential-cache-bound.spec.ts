import type { Redis } from 'ioredis';
import { apiKeyKeys } from '../../src/api-keys/projections/api-keys.projection';
import { CachedCredentialGate } from '../../src/access/credentials/cached.credential-gate';
import { CredentialCache } from '../../src/access/credentials/credential-cache';
import { LeasedRateLimiter } from '../../src/rate-limiting/leased.rate-limiter';
import { RedisCredentialGate } from '../../src/access/credentials/redis.credential-gate';
import { RedisRateLimiter } from '../../src/rate-limiting/redis.rate-limiter';
import { RedisTestContext } from '../support/redis';

const TTL_MS = 400;
const limits = { perMinute: 6000, gatewayPerMinute: 120_000, gatewayUnknownPerMinute: 600 };

/**
 * The bound docs/rate-limiting.md states for an instance that missed a revocation on the bus
 * (subscriber down, a CLI writing the store directly): its cached copy is trusted for at most
 * CREDENTIAL_CACHE_TTL_MS, then the gate reads the record again and sees the revocation.
 */
describe('cached credential gate: a revocation the instance never heard of', () => {
  const context = new RedisTestContext('credential-cache-bound');
  let redis: Redis;
  let gate: CachedCredentialGate;
  let recordKey: string;

  beforeAll(async () => {
    redis = await context.client();
    const namespace = context.namespace();
    const limiter = new RedisRateLimiter(redis, `${namespace}rl:`, namespace);
    const cache = new CredentialCache({ ttlMs: TTL_MS, maxEntries: 10 });
    const leased = new LeasedRateLimiter(limiter, { maxFraction: 0.01 });
    gate = new CachedCredentialGate(new RedisCredentialGate(limiter, namespace, limits), cache, leased, limits);
    recordKey = namespace + apiKeyKeys.byHash('hash-1');
    await redis.hset(recordKey, { key_id: 'key_1', account_id: 'acc_1', scopes: 'full', revoked: '0' });
  });
  afterAll(() => context.teardown());

  it('trusts the cached credential until its TTL, then refuses the revoked key', async () => {
    expect((await gate.lookupAndConsume('hash-1', 'ip:1')).credential?.revoked).toBe(false);
    // Revoked in the read model with no message on the bus: this instance's cache still holds it.
    await redis.hset(recordKey, 'revoked', '1');
    const startedAt = Date.now();
    const early = await gate.lookupAndConsume('hash-1', 'ip:1');
    if (Date.now() - startedAt < TTL_MS) expect(early.credential?.revoked).toBe(false);
    await new Promise((resolve) => setTimeout(resolve, TTL_MS + 50));
    const late = await gate.lookupAndConsume('hash-1', 'ip:1');
    expect(late.credential?.revoked).toBe(true);
  });
});
