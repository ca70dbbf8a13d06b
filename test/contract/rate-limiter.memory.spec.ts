import { MemoryRateLimiter } from '../../src/rate-limiting/memory.rate-limiter';
import { describeRateLimiterContract } from './rate-limiter.contract';

describeRateLimiterContract('memory', {
  create: async () => new MemoryRateLimiter(),
  teardown: async () => undefined,
});

describe('MemoryRateLimiter', () => {
  it('forgets the counters of ended windows', async () => {
    let now = Date.UTC(2030, 0, 1, 12, 0, 30);
    const limiter = new MemoryRateLimiter(() => now);
    for (let i = 0; i < 50; i++) await limiter.consume(`bucket-${i}`, 10, 60);
    expect(limiter.size).toBe(50);
    now += 120_000;
    await limiter.consume('bucket-0', 10, 60);
    expect(limiter.size).toBe(1);
  });

  it('windows follow the epoch, not the first request', async () => {
    let now = Date.UTC(2030, 0, 1, 12, 0, 59, 900);
    const limiter = new MemoryRateLimiter(() => now);
    expect(await limiter.consume('b', 1, 60)).toMatchObject({
      allowed: true,
      resetAtSeconds: Date.UTC(2030, 0, 1, 12, 1) / 1000,
    });
    expect((await limiter.consume('b', 1, 60)).allowed).toBe(false);
    now += 200;
    expect(await limiter.consume('b', 1, 60)).toMatchObject({
      allowed: true,
      resetAtSeconds: Date.UTC(2030, 0, 1, 12, 2) / 1000,
    });
  });
});
