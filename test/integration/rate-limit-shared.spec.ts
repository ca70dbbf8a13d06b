import { setImmediate as nextMacrotask } from 'node:timers/promises';
import type { Redis } from 'ioredis';
import { RedisRateLimiter } from '../../src/rate-limiting/redis.rate-limiter';
import type { RateLimitDecision } from '../../src/rate-limiting/rate-limiter.port';
import { inOneWindow } from '../contract/rate-limiter.contract';
import { RedisTestContext } from '../support/redis';

/**
 * The acceptance test of the shared limit: four service instances, each with its own Redis
 * connection, hit one bucket at once, and the bucket admits exactly its limit in total.
 */
describe('rate limit shared by several service instances', () => {
  const redis = new RedisTestContext('rate-limit-shared');
  const instances = 4;
  const perInstance = 400;
  const limit = 500;
  let clients: Redis[];

  beforeAll(async () => {
    clients = await Promise.all(Array.from({ length: instances }, (_, i) => redis.client(`instance-${i}`)));
  });
  afterAll(() => redis.teardown());

  /**
   * All of an instance's requests are in flight together, but issued in chunks a macrotask
   * apart: auto-pipelining would otherwise send each instance's 400 as one batch, and whichever
   * batch reached Redis first would take most of the limit.
   */
  async function burst(limiter: RedisRateLimiter, bucket: string): Promise<RateLimitDecision[]> {
    const pending: Promise<RateLimitDecision>[] = [];
    for (let i = 0; i < perInstance; i++) {
      if (i > 0 && i % 40 === 0) await nextMacrotask();
      pending.push(limiter.consume(bucket, limit, 3600));
    }
    return Promise.all(pending);
  }

  it('runs each instance over a connection of its own', async () => {
    const ids = await Promise.all(clients.map((client) => client.client('ID')));
    expect(new Set(ids).size).toBe(instances);
  });

  it(`admits exactly ${limit} of ${instances} x ${perInstance} concurrent requests across instances`, async () => {
    const namespace = redis.namespace();
    const limiters = clients.map((client) => new RedisRateLimiter(client, namespace));
    const perLimiter: RateLimitDecision[][] = [];
    await inOneWindow(async (bucket) => {
      perLimiter.length = 0;
      perLimiter.push(...(await Promise.all(limiters.map((limiter) => burst(limiter, bucket)))));
      return perLimiter.flat();
    });

    const all = perLimiter.flat();
    const allowed = all.filter((d) => d.allowed);
    expect(all).toHaveLength(instances * perInstance);
    expect(allowed.length).toBe(limit);
    // Each admitted request took a distinct slot: no two instances counted the same one.
    expect(new Set(allowed.map((d) => d.remaining)).size).toBe(limit);
    // The connections really raced: more than one instance got requests through.
    expect(perLimiter.filter((decisions) => decisions.some((d) => d.allowed)).length).toBeGreaterThan(1);
  });

  it('gives every instance the same window, from the Redis clock', async () => {
    const namespace = redis.namespace();
    const limiters = clients.map((client) => new RedisRateLimiter(client, namespace));
    const decisions = await inOneWindow((bucket) => Promise.all(limiters.map((l) => l.consume(bucket, 10, 60))));
    expect(new Set(decisions.map((d) => d.resetAtSeconds)).size).toBe(1);
    expect(decisions.map((d) => d.remaining).sort()).toEqual([6, 7, 8, 9]);
  });
});
