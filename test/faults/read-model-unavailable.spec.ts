import type { Redis } from 'ioredis';
import { ReplyError } from 'ioredis';
import { ReadModelUnavailableError } from '../../src/infrastructure/read-model/read-model-store.port';
import { RedisReadModelStore } from '../../src/infrastructure/read-model/redis.read-model-store';
import { closeRedisClient, createRedisClient, waitForReady } from '../../src/infrastructure/redis/redis.client';
import { RedisTestContext, testRedisUrl } from '../support/redis';
import { startTcpProxy, type TcpProxy } from '../support/tcp-proxy';

/**
 * Regression (found by the fault suite): a request that passed authentication just before Redis
 * went away read its read model through an error the HTTP layer did not know, and got 500. The
 * adapter now names an outage ReadModelUnavailableError, which the error filter answers with 503.
 */
describe('the Redis read-model store when Redis goes away', () => {
  const context = new RedisTestContext('read-model-unavailable');
  let proxy: TcpProxy;
  let redis: Redis;
  let store: RedisReadModelStore;

  beforeAll(async () => {
    const target = new URL(testRedisUrl());
    proxy = await startTcpProxy(target.hostname, Number(target.port || 6379));
    redis = createRedisClient(`redis://127.0.0.1:${proxy.port}`, { connectionName: 'test:read-model-unavailable' });
    await waitForReady(redis, 5000);
    store = new RedisReadModelStore(redis, context.namespace());
  });

  afterAll(async () => {
    await proxy.cut();
    await closeRedisClient(redis);
    await context.teardown();
  });

  it('keeps a reply error (a bug, not an outage) as it is', async () => {
    await store.write([{ op: 'set', key: 'plain', value: 'x' }]);
    await expect(store.hgetall('plain')).rejects.toBeInstanceOf(ReplyError);
  });

  it.each([
    ['get', (s: RedisReadModelStore) => s.get('k')],
    ['mget', (s: RedisReadModelStore) => s.mget(['a', 'b'])],
    ['hgetall', (s: RedisReadModelStore) => s.hgetall('h')],
    ['zcard', (s: RedisReadModelStore) => s.zcard('z')],
    ['zrange', (s: RedisReadModelStore) => s.zrange('z', 0, 10, 'desc')],
    ['page', (s: RedisReadModelStore) => s.page('ix', 'v:', 0, 10, 'asc')],
    ['write', (s: RedisReadModelStore) => s.write([{ op: 'set', key: 'k', value: 'v' }])],
  ])('%s rejects with ReadModelUnavailableError once the connection is cut', async (_name, call) => {
    await proxy.cut();
    await expect(call(store)).rejects.toBeInstanceOf(ReadModelUnavailableError);
  });
});
