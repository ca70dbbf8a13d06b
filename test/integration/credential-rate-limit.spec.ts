import type { Redis } from 'ioredis';
import { RedisRateLimiter } from '../../src/rate-limiting/redis.rate-limiter';
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
    await redis.hset(`${namespace}rm:apikey-hash:h1`, {
      key_id: 'key_1',
      scopes: 'full',
      environment: 'live',
      revoked: '0',
    });
  });
  afterAll(() => context.teardown());

  it("returns the credential and counts against the key's bucket", async () => {
    const { credential, decision } = await limiter.consumeWithCredential(
      `${namespace}rm:apikey-hash:h1`,
      'key:',
      'ip:1.2.3.4',
      10,
      3600,
    );
    expect(credential).toMatchObject({ key_id: 'key_1', scopes: 'full' });
    expect(decision).toMatchObject({ allowed: true, remaining: 9 });
    expect((await limiter.consume('key:key_1', 10, 3600)).remaining).toBe(8);
  });

  it('counts against the fallback bucket when there is no such credential', async () => {
    const { credential, decision } = await limiter.consumeWithCredential(
      `${namespace}rm:apikey-hash:nope`,
      'key:',
      'ip:5.6.7.8',
      10,
      3600,
    );
    expect(credential).toEqual({});
    expect(decision.remaining).toBe(9);
    expect((await limiter.consume('ip:5.6.7.8', 10, 3600)).remaining).toBe(8);
  });

  it('allows exactly the limit under 600 concurrent calls', async () => {
    await redis.hset(`${namespace}rm:apikey-hash:h2`, { key_id: 'key_2' });
    const results = await Promise.all(
      Array.from({ length: 600 }, () =>
        limiter.consumeWithCredential(`${namespace}rm:apikey-hash:h2`, 'key:', 'ip:9.9.9.9', 250, 3600),
      ),
    );
    expect(results.filter((r) => r.decision.allowed)).toHaveLength(250);
  });

  describe('reading ahead the record the handler will read, in the same round trip', () => {
    const rm = () => `${namespace}rm:`;
    let ahead: RedisRateLimiter;

    beforeAll(async () => {
      ahead = new RedisRateLimiter(redis, namespace, rm());
      await redis.hset(`${rm()}account:acc_1`, { id: 'acc_1', name: 'Acme' });
      await redis.set(`${rm()}trunk:trk_1`, '{"id":"trk_1"}');
    });

    it('returns a hash, a string, and what is missing as {} or null', async () => {
      const credentialKey = `${namespace}rm:apikey-hash:h1`;
      const cases = [
        [
          { kind: 'hash', key: 'account:acc_1' },
          { id: 'acc_1', name: 'Acme' },
        ],
        [{ kind: 'string', key: 'trunk:trk_1' }, '{"id":"trk_1"}'],
        [{ kind: 'hash', key: 'account:none' }, {}],
        [{ kind: 'string', key: 'trunk:none' }, null],
      ] as const;
      for (const [spec, expected] of cases) {
        const found = await ahead.consumeWithCredential(credentialKey, 'key:', 'ip:1.2.3.4', 1000, 3600, spec);
        expect({ spec, credential: found.credential.key_id, value: found.readAhead }).toEqual({
          spec,
          credential: 'key_1',
          value: expected,
        });
        const bucket = await ahead.consumeReadingAhead('key:admin', 1000, 3600, spec);
        expect({ spec, value: bucket.readAhead, allowed: bucket.decision.allowed }).toEqual({
          spec,
          value: expected,
          allowed: true,
        });
      }
    });

    it('reads a key of another type as missing instead of failing the credential check', async () => {
      const found = await ahead.consumeWithCredential(
        `${namespace}rm:apikey-hash:h1`,
        'key:',
        'ip:1.2.3.4',
        1000,
        3600,
        { kind: 'string', key: 'account:acc_1' },
      );
      expect(found).toMatchObject({ credential: { key_id: 'key_1' }, readAhead: null, decision: { allowed: true } });
      const hash = await ahead.consumeReadingAhead('key:admin', 1000, 3600, { kind: 'hash', key: 'trunk:trk_1' });
      expect(hash).toMatchObject({ readAhead: {}, decision: { allowed: true } });
    });

    it('still refuses past the limit, and asks for nothing when there is nothing to read ahead', async () => {
      await redis.hset(`${namespace}rm:apikey-hash:h3`, { key_id: 'key_3' });
      const spec = { kind: 'hash', key: 'account:acc_1' } as const;
      const results = await Promise.all(
        Array.from({ length: 40 }, () =>
          ahead.consumeWithCredential(`${namespace}rm:apikey-hash:h3`, 'key:', 'ip:7.7.7.7', 25, 3600, spec),
        ),
      );
      expect(results.filter((r) => r.decision.allowed)).toHaveLength(25);
      expect(
        (await ahead.consumeWithCredential(`${namespace}rm:apikey-hash:h1`, 'key:', 'ip:1.2.3.4', 1000, 3600))
          .readAhead,
      ).toBeUndefined();
    });
  });
});
