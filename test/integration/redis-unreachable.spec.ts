import { START_DEADLINE_MS } from '../support/deadlines';
import type { Redis } from 'ioredis';
import { RedisReadModelStore } from '../../src/infrastructure/read-model/redis.read-model-store';
import { RedisKeyUsageStore } from '../../src/rate-limiting/redis.key-usage-store';
import { RedisRateLimiter } from '../../src/rate-limiting/redis.rate-limiter';
import { closeRedisClient, createRedisClient, waitForReady } from '../../src/infrastructure/redis/redis.client';
import { testRedisUrl, uniqueNamespace } from '../support/redis';
import { startTcpProxy, type TcpProxy } from '../support/tcp-proxy';

/**
 * The service answers 503 when Redis is away; that needs commands to fail, fast, not hang. Fast by
 * construction, not by a stopwatch: a command is refused at once once the client has connected
 * (no offline queue), and before the first connect it gives up after one reconnect attempt
 * (maxRetriesPerRequest: 1). Either way, never by waiting out a timeout.
 */
const FAILS_FAST = /max retries per request limit \(which is 1\)|enableOfflineQueue options is false/;

const CALLS: Record<string, (redis: Redis, ns: string) => Promise<unknown>> = {
  'rate limiter consume()': (redis, ns) => new RedisRateLimiter(redis, ns).consume('bucket', 10, 60),
  'read model get()': (redis, ns) => new RedisReadModelStore(redis, ns).get('key'),
  'read model page()': (redis, ns) => new RedisReadModelStore(redis, ns).page('ix', 'v:', 0, 10, 'asc'),
  'read model write()': (redis, ns) => new RedisReadModelStore(redis, ns).write([{ op: 'del', key: 'k' }]),
  'key usage get()': (redis, ns) => new RedisKeyUsageStore(redis, ns).get(['key']),
  // record() only adds to the in-process counts (the request path never waits on Redis for
  // usage); writing them is where an outage shows, and it must fail fast too.
  'key usage record() then flush()': async (redis, ns) => {
    const store = new RedisKeyUsageStore(redis, ns);
    await store.record('key', new Date(), false);
    await store.flush();
  },
};

async function rejection(call: () => Promise<unknown>): Promise<string> {
  try {
    await call();
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('the call succeeded with Redis unreachable');
}

describe('when Redis cannot be reached', () => {
  const clients: Redis[] = [];
  const client = (url: string) => {
    const redis = createRedisClient(url, { connectionName: 'test:unreachable' });
    clients.push(redis);
    return redis;
  };
  let proxy: TcpProxy | undefined;
  afterAll(async () => {
    await proxy?.cut();
    await Promise.all(clients.map((redis) => closeRedisClient(redis)));
  });

  describe('on a client that never connected (closed port)', () => {
    it.each(Object.keys(CALLS))('%s is refused without waiting for Redis', async (name) => {
      const redis = client('redis://127.0.0.1:1');
      expect(await rejection(() => CALLS[name](redis, uniqueNamespace()))).toMatch(FAILS_FAST);
    });
  });

  describe('on a client whose Redis went away after boot', () => {
    let redis: Redis;
    beforeAll(async () => {
      const target = new URL(testRedisUrl());
      proxy = await startTcpProxy(target.hostname, Number(target.port || 6379));
      redis = client(`redis://127.0.0.1:${proxy.port}`);
      await waitForReady(redis, START_DEADLINE_MS);
      await redis.ping();
      await proxy.cut();
    });

    it.each(Object.keys(CALLS))('%s is refused without waiting for Redis', async (name) => {
      expect(await rejection(() => CALLS[name](redis, uniqueNamespace()))).toMatch(FAILS_FAST);
    });
  });

  it('waitForReady gives up after its timeout, naming the connection error', async () => {
    const redis = client('redis://127.0.0.1:1');
    await expect(waitForReady(redis, 300)).rejects.toThrow(/not ready after 300 ms: .*ECONNREFUSED/);
  });
});
