import { RedisRateLimiter } from '../../src/rate-limiting/redis.rate-limiter';
import { LeasedRateLimiter } from '../../src/rate-limiting/leased.rate-limiter';
import { RedisTestContext } from '../support/redis';
import { describeRateLimiterContract } from './rate-limiter.contract';

const contract = new RedisTestContext('rate-limiter');
let client: ReturnType<RedisTestContext['client']> | undefined;

describeRateLimiterContract('redis', {
  async create() {
    client ??= contract.client();
    return new RedisRateLimiter(await client, contract.namespace());
  },
  teardown: () => contract.teardown(),
});

describe('RedisRateLimiter', () => {
  const redis = new RedisTestContext('rate-limiter-keys');
  afterAll(() => redis.teardown());

  it('keeps one counter per bucket and window, expiring shortly after the window ends', async () => {
    const r = await redis.client();
    const namespace = redis.namespace();
    const limiter = new RedisRateLimiter(r, namespace);
    const { resetAtSeconds } = await limiter.consume('api-key-1', 10, 60);
    await limiter.consume('api-key-1', 10, 60);
    const key = `${namespace}rl:api-key-1:${resetAtSeconds / 60 - 1}`;
    expect(await r.get(key)).toBe('2');
    expect(await r.expiretime(key)).toBeGreaterThanOrEqual(resetAtSeconds);
    expect(await r.expiretime(key)).toBeLessThanOrEqual(resetAtSeconds + 10);
  });
});

const leased = new RedisTestContext('rate-limiter-leased');
let leasedClient: ReturnType<RedisTestContext['client']> | undefined;

// Leases of up to 1 % of the limit (the default): one limiter holds every slot it leased, so
// in one process the count is exact, as the contract asks.
describeRateLimiterContract('redis, leased slots', {
  async create() {
    leasedClient ??= leased.client();
    return new LeasedRateLimiter(new RedisRateLimiter(await leasedClient, leased.namespace()), { maxFraction: 0.01 });
  },
  teardown: () => leased.teardown(),
});
