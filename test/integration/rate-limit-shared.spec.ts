import { setImmediate as nextMacrotask } from 'node:timers/promises';
import type { Redis } from 'ioredis';
import { LeasedRateLimiter } from '../../src/rate-limiting/leased.rate-limiter';
import { RedisRateLimiter } from '../../src/rate-limiting/redis.rate-limiter';
import type { RateLimitDecision, RateLimiter } from '../../src/rate-limiting/rate-limiter.port';
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
  async function burst(limiter: RateLimiter, bucket: string): Promise<RateLimitDecision[]> {
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

  describe('with leased slots (the default on Redis: RATE_LIMIT_LEASE_PERCENT=1)', () => {
    const leaseFraction = 0.01;

    it(`never admits more than the limit, and admits all of it while every instance keeps sending`, async () => {
      const namespace = redis.namespace();
      const limiters = clients.map(
        (client) => new LeasedRateLimiter(new RedisRateLimiter(client, namespace), { maxFraction: leaseFraction }),
      );
      const perLimiter: RateLimitDecision[][] = [];
      await inOneWindow(async (bucket) => {
        perLimiter.length = 0;
        perLimiter.push(...(await Promise.all(limiters.map((limiter) => burst(limiter, bucket)))));
        return perLimiter.flat();
      });
      const allowed = perLimiter.flat().filter((d) => d.allowed);
      // Each instance asked for more than its share, so none ends holding slots: exactly the limit.
      expect(allowed.length).toBe(limit);
      expect(new Set(allowed.map((d) => d.remaining)).size).toBe(limit);
      expect(perLimiter.filter((decisions) => decisions.some((d) => d.allowed)).length).toBeGreaterThan(1);
    });

    it('loses at most one lease (1 % of the limit) per instance that stops sending, and never overshoots', async () => {
      const namespace = redis.namespace();
      const bigLimit = 6000;
      const cap = Math.floor(bigLimit * leaseFraction);
      const limiters = clients
        .slice(0, 3)
        .map(
          (client) => new LeasedRateLimiter(new RedisRateLimiter(client, namespace), { maxFraction: leaseFraction }),
        );
      const [idle, ...busy] = limiters;
      const counts = { allowed: 0, idleHeld: 0, busyHeld: 0 };
      await inOneWindow(async (bucket) => {
        counts.allowed = 0;
        const decisions: RateLimitDecision[] = [];
        // The first instance sends a burst (its leases grow), then stops with slots in hand.
        for (let round = 0; round < 5; round++)
          decisions.push(
            ...(await Promise.all(Array.from({ length: 40 }, () => idle.consume(bucket, bigLimit, 3600)))),
          );
        counts.idleHeld = idle.unused(bucket, 3600);
        // The others send until they are refused.
        for (const limiter of busy) {
          for (;;) {
            const batch = await Promise.all(Array.from({ length: 200 }, () => limiter.consume(bucket, bigLimit, 3600)));
            decisions.push(...batch);
            if (batch.some((d) => !d.allowed)) break;
          }
        }
        counts.allowed = decisions.filter((d) => d.allowed).length;
        counts.busyHeld = busy.reduce((sum, limiter) => sum + limiter.unused(bucket, 3600), 0);
        return decisions;
      });
      // Slots held by the instances that still send are used; only the idle one's are lost.
      expect(counts.idleHeld).toBeGreaterThan(0);
      expect(counts.idleHeld).toBeLessThanOrEqual(cap);
      expect(counts.allowed).toBeLessThanOrEqual(bigLimit);
      expect(counts.busyHeld).toBe(0);
      expect(counts.allowed + counts.idleHeld).toBe(bigLimit);
    });
  });
});
