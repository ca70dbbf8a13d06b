import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Redis } from 'ioredis';
import { createEventStore } from '../../src/infrastructure/event-store/event-store.factory';
import { EventStore, NewEvent } from '../../src/infrastructure/event-store/event-store.port';
import { RedisReadModelStore } from '../../src/infrastructure/read-model/redis.read-model-store';
import { ProjectionRunner, ProjectionRunnerOptions } from '../../src/eventsourcing/projection-runner';
import { buildReadModelProjections } from '../../src/read-models/read-models.service';
import { RedisTestContext } from '../support/redis';

/** Dumps every key of a namespace with its value, whatever its type, for comparing read models. */
async function snapshot(redis: Redis, namespace: string): Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = {};
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${namespace}*`, 'COUNT', 500);
    for (const key of keys) {
      const type = await redis.type(key);
      if (type === 'hash') out[key] = await redis.hgetall(key);
      else if (type === 'zset') out[key] = await redis.call('ZRANGE', key, '0', '-1', 'WITHSCORES');
      else out[key] = await redis.get(key);
    }
    cursor = next;
  } while (cursor !== '0');
  return out;
}

const accountCreated = (id: string, at: string): NewEvent => ({
  id: randomUUID(),
  type: 'AccountCreated',
  data: { account_id: id, name: `n-${id}`, created_at: at },
});
const keyIssued = (keyId: string, accountId: string, hash: string): NewEvent => ({
  id: randomUUID(),
  type: 'ApiKeyIssued',
  data: {
    key_id: keyId,
    account_id: accountId,
    name: 'k',
    scopes: ['full'],
    environment: 'live',
    key_hash: hash,
    key_hint: 'abcd',
    expires_at: null,
    created_at: '2026-11-21T10:00:00.000Z',
  },
});
const keyRevoked = (keyId: string, accountId: string, hash: string): NewEvent => ({
  id: randomUUID(),
  type: 'ApiKeyRevoked',
  data: { key_id: keyId, account_id: accountId, key_hash: hash, revoked_at: '2026-11-21T11:00:00.000Z' },
});

async function caughtUp(runner: ProjectionRunner): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if ((await runner.status()).caughtUp) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error('runner did not catch up');
}

describe('projection runner (PGlite event store, Redis read models)', () => {
  const redisContext = new RedisTestContext('projection-runner');
  let redis: Redis;
  let events: EventStore;
  let dataDir: string;

  beforeAll(async () => {
    redis = await redisContext.client();
    dataDir = mkdtempSync(join(tmpdir(), 'trunkline-proj-'));
    events = await createEventStore({ dataDir });
    for (let i = 0; i < 30; i++) {
      const accountId = `acct_${i}`;
      await events.append(
        `account-${accountId}`,
        [accountCreated(accountId, new Date(Date.UTC(2026, 0, 1, 0, i)).toISOString())],
        'no_stream',
      );
      await events.append(
        `apikey-key_${i}`,
        [
          keyIssued(`key_${i}`, accountId, `hash${i}`),
          ...(i % 3 === 0 ? [keyRevoked(`key_${i}`, accountId, `hash${i}`)] : []),
        ],
        'no_stream',
      );
    }
  });

  afterAll(async () => {
    await events.close();
    await redisContext.teardown();
    rmSync(dataDir, { recursive: true, force: true });
  });

  function runnerOn(namespace: string, options: ProjectionRunnerOptions = {}): ProjectionRunner {
    return new ProjectionRunner(
      'read-models',
      buildReadModelProjections({ decrypt: async () => 'pw' }, 'sip.test'),
      new RedisReadModelStore(redis, namespace),
      events,
      options,
    );
  }

  /** A runner of `batchSize` that records how many events each batch it writes holds. */
  function countingRunner(namespace: string, batchSize: number): { runner: ProjectionRunner; batches: number[] } {
    const store = new RedisReadModelStore(redis, namespace);
    const batches: number[] = [];
    const runner = runnerOn(namespace, {
      batchSize,
      writer: (ops, checkpoint, count) => {
        batches.push(count);
        return store.write([...ops, { op: 'set', ...checkpoint }]);
      },
    });
    return { runner, batches };
  }

  it('projects every event and reports itself caught up', async () => {
    const namespace = redisContext.namespace();
    const runner = runnerOn(namespace);
    await runner.start();
    await caughtUp(runner);
    await runner.stop();
    expect(await redis.zcard(`${namespace}accounts`)).toBe(30);
    expect(await redis.hget(`${namespace}apikey-hash:hash3`, 'revoked')).toBe('1');
    expect(await redis.hget(`${namespace}apikey-hash:hash4`, 'revoked')).toBe('0');
  });

  it('changes nothing when the same events are applied twice', async () => {
    const namespace = redisContext.namespace();
    const first = runnerOn(namespace);
    await first.start();
    await caughtUp(first);
    await first.stop();
    const once = await snapshot(redis, namespace);
    // Forget the checkpoint: the next runner replays everything over the existing models.
    await redis.del(`${namespace}checkpoint:read-models`);
    const second = runnerOn(namespace);
    await second.start();
    await caughtUp(second);
    await second.stop();
    expect(await snapshot(redis, namespace)).toEqual(once);
  });

  it('resumes from its checkpoint after a restart and applies only the new events', async () => {
    const namespace = redisContext.namespace();
    const first = runnerOn(namespace);
    await first.start();
    await caughtUp(first);
    await first.stop();
    const checkpointBefore = await redis.get(`${namespace}checkpoint:read-models`);
    const appended = await events.append(
      'account-acct_late',
      [accountCreated('acct_late', '2026-06-01T00:00:00.000Z')],
      'no_stream',
    );
    const second = runnerOn(namespace);
    await second.start();
    expect(await second.waitFor(appended.position, 5000)).toBe(true);
    await second.stop();
    expect(await redis.get(`${namespace}checkpoint:read-models`)).not.toBe(checkpointBefore);
    expect(await redis.hget(`${namespace}account:acct_late`, 'name')).toBe('n-acct_late');
  });

  it('rebuilds from zero into exactly the live read model', async () => {
    const namespace = redisContext.namespace();
    const runner = runnerOn(namespace);
    await runner.start();
    await caughtUp(runner);
    const live = await snapshot(redis, namespace);
    await redis.set(`${namespace}account:stray`, 'left over from a bug');
    await runner.rebuild();
    await caughtUp(runner);
    await runner.stop();
    expect(await snapshot(redis, namespace)).toEqual(live);
  });

  it('catches up and rebuilds in batches of its configured size', async () => {
    const stored = (await events.readAll({ after: null, maxCount: 100_000 })).length;
    const { runner, batches } = countingRunner(redisContext.namespace(), 7);
    await runner.start();
    await caughtUp(runner);
    const caughtUpIn = batches.splice(0);
    await runner.rebuild();
    await caughtUp(runner);
    await runner.stop();
    // Full pages of 7, then what is left: every event once, never more than 7 in one write.
    const pages = Array.from({ length: Math.ceil(stored / 7) }, (_, i) => Math.min(7, stored - 7 * i));
    expect(pages.length).toBeGreaterThan(5);
    expect({ caughtUpIn, rebuiltIn: batches }).toEqual({ caughtUpIn: pages, rebuiltIn: pages });
  });

  it('waitFor resolves false when the position is not reached in time', async () => {
    const namespace = redisContext.namespace();
    const runner = runnerOn(namespace);
    const far = { hi: 2n ** 62n, lo: 0n };
    expect(await runner.waitFor(far, 50)).toBe(false);
  });
});
