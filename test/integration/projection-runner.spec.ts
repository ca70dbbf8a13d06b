import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Redis } from 'ioredis';
import { createEventStore } from '../../src/infrastructure/event-store/event-store.factory';
import {
  encodePosition,
  EventStore,
  GlobalPosition,
  NewEvent,
  ReadAllOptions,
} from '../../src/infrastructure/event-store/event-store.port';
import { catchUpTogether } from '../../src/eventsourcing/catch-up';
import { SETTLE_DEADLINE_MS } from '../support/deadlines';
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

  describe('reading only the event types its projections apply', () => {
    let store: EventStore;
    let dir: string;
    const reads: { options: ReadAllOptions; returned: number }[] = [];
    let counted: EventStore;
    /** A type no projection of the read models applies (as the name reservations). */
    const skipped = (n: number): NewEvent => ({ id: randomUUID(), type: 'ContractNoteRecorded', data: { n } });

    beforeAll(async () => {
      dir = mkdtempSync(join(tmpdir(), 'trunkline-proj-types-'));
      store = await createEventStore({ dataDir: dir });
      counted = Object.assign(Object.create(store) as EventStore, {
        readAll: async (options: ReadAllOptions) => {
          const read = await store.readAll(options);
          reads.push({ options, returned: read.length });
          return read;
        },
      });
    });

    afterAll(async () => {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    });

    it('moves its checkpoint past events of other types, releases their waiters and never reads them again', async () => {
      await store.append('account-acct_t1', [accountCreated('acct_t1', '2026-01-01T00:00:00.000Z')], 'no_stream');
      await store.append('notes-1', [skipped(1), skipped(2)], 'no_stream');
      await store.append('account-acct_t2', [accountCreated('acct_t2', '2026-01-02T00:00:00.000Z')], 'no_stream');
      const skippedPositions: GlobalPosition[] = [];
      for (let n = 3; n < 6; n++) skippedPositions.push((await store.append('notes-1', [skipped(n)], n - 2)).position);
      const last = skippedPositions[skippedPositions.length - 1];
      const namespace = redisContext.namespace();
      const runnerOnStore = () =>
        new ProjectionRunner(
          'read-models',
          buildReadModelProjections({ decrypt: async () => 'pw' }, 'sip.test'),
          new RedisReadModelStore(redis, namespace),
          counted,
          { batchSize: 2 },
        );
      const runner = runnerOnStore();
      const waiting = runner.waitFor(skippedPositions[0], SETTLE_DEADLINE_MS);

      await catchUpTogether(counted, [runner], 2);

      // The store filtered: no event of another type came back, and the pages said which types.
      expect(reads.length).toBeGreaterThan(0);
      expect(reads.every(({ options }) => options.types?.includes('AccountCreated'))).toBe(true);
      expect(reads.some(({ options }) => options.types?.includes('ContractNoteRecorded'))).toBe(false);
      expect(reads.reduce((sum, read) => sum + read.returned, 0)).toBe(2);
      expect(await redis.zcard(`${namespace}accounts`)).toBe(2);
      // The checkpoint stands after the last event of the store, one the runner never saw.
      expect(await redis.get(`${namespace}checkpoint:read-models`)).toBe(encodePosition(last));
      expect(await waiting).toBe(true);
      expect(await runner.waitFor(last, SETTLE_DEADLINE_MS)).toBe(true);

      reads.length = 0;
      const restarted = runnerOnStore();
      await catchUpTogether(counted, [restarted], 2);
      expect(reads.reduce((sum, read) => sum + read.returned, 0)).toBe(0);
      expect(await restarted.waitFor(last, SETTLE_DEADLINE_MS)).toBe(true);
    });
  });
});
