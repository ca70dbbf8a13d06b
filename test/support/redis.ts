import { SETTLE_DEADLINE_MS, START_DEADLINE_MS } from './deadlines';
import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import { closeRedisClient, createRedisClient, waitForReady } from '../../src/infrastructure/redis/redis.client';

export function testRedisUrl(): string {
  return process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
}

/** `t:<random>:`, so concurrent test files and runs never see each other's keys. */
export function uniqueNamespace(): string {
  return `t:${randomBytes(6).toString('hex')}:`;
}

export async function deleteNamespace(redis: Redis, namespace: string): Promise<void> {
  const match = `${namespace.replace(/[*?[\]\\]/g, '\\$&')}*`;
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', match, 'COUNT', 500);
    if (keys.length > 0) await redis.unlink(...keys);
    cursor = next;
  } while (cursor !== '0');
}

/** Every key of a namespace (without the namespace) and its value, whatever its type. */
export async function namespaceSnapshot(redis: Redis, namespace: string): Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = {};
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${namespace}*`, 'COUNT', 1000);
    for (const key of keys) {
      const local = key.slice(namespace.length);
      const type = await redis.type(key);
      out[local] =
        type === 'hash'
          ? await redis.hgetall(key)
          : type === 'zset'
            ? await redis.call('ZRANGE', key, '0', '-1', 'WITHSCORES')
            : await redis.get(key);
    }
    cursor = next;
  } while (cursor !== '0');
  return out;
}

/**
 * Clients and namespaces of one test file: `client()` opens a connection, `namespace()` hands
 * out a fresh namespace, `teardown()` (in afterAll) deletes their keys and closes every client.
 */
export class RedisTestContext {
  private readonly clients: Redis[] = [];
  private readonly namespaces: string[] = [];

  constructor(private readonly name: string) {}

  async client(role = 'main'): Promise<Redis> {
    const redis = createRedisClient(testRedisUrl(), {
      connectionName: `test:${this.name}:${role}`,
      // A busy machine may hold a command past the service's 1 s: these clients are not what is tested.
      commandTimeoutMs: SETTLE_DEADLINE_MS,
    });
    this.clients.push(redis);
    await waitForReady(redis, START_DEADLINE_MS);
    return redis;
  }

  namespace(): string {
    const namespace = uniqueNamespace();
    this.namespaces.push(namespace);
    return namespace;
  }

  async teardown(): Promise<void> {
    const [cleaner] = this.clients;
    if (cleaner) {
      for (const namespace of this.namespaces) await deleteNamespace(cleaner, namespace);
    }
    await Promise.all(this.clients.map((redis) => closeRedisClient(redis)));
  }
}
