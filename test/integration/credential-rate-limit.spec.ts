import type { Redis } from 'ioredis';
import { RedisRateLimiter } from '../../src/infrastructure/rate-limit/redis.rate-limiter';
import { RedisTestContext } from '../support/redis';

/** The gate's one-round-trip script: credential read and rate limit together, exact under concurrency. */
describe('RedisRateLimiter.consumeWithCredential', () => {
  const context = new RedisTestContext('credential-limit');
  let redis: Redis;
  let namespace: string;
  let limiter: RedisRateLimiter;

  beforeAll(async () => {
    redis = await context.client();
    namespace = context.namespace();
    limiter = new RedisRateLimiter(redis, namespace);
    await redis.hset(`${namespace}rm:apikey-hash:h1`, { key_id: 'key_1', scopes: 'full', environment: 'live', revoked: '0' });
  });
  afterAll(() => context.teardown());

  it('returns the credential and counts against the key\'s bucket', async () => {
    const { credential, decision } = await limiter.consumeWithCredential(`${namespace}rm:apikey-hash:h1`, 'key:', 'ip:1.2.3.4', 10, 3600);
    expect(credential).toMatchObject({ key_id: 'key_1', scopes: 'full' });
    expect(decision).toMatchObject({ allowed: true, remaining: 9 });
    expect((await limiter.consume('key:key_1', 10, 3600)).remaining).toBe(8);
  });

  it('counts against the fallback bucket when there is no such credential', async () => {
    const { credential, decision } = await limiter.consumeWithCredential(`${namespace}rm:apikey-hash:nope`, 'key:', 'ip:5.6.7.8', 10, 3600);
    expect(credential).toEqual({});
    expect(decision.remaining).toBe(9);
    expect((await limiter.consume('ip:5.6.7.8', 10, 3600)).remaining).toBe(8);
  });

  it('allows exactly the limit under 600 concurrent calls', async () => {
    await redis.hset(`${namespace}rm:apikey-hash:h2`, { key_id: 'key_2' });
    const results = await Promise.all(Array.from({ length: 600 }, () => limiter.consumeWithCredential(`${namespace}rm:apikey-hash:h2`, 'key:', 'ip:9.9.9.9', 250, 3600)));
    expect(results.filter((r) => r.decision.allowed)).toHaveLength(250);
  });
});
