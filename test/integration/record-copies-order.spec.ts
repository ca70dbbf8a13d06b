import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Redis } from 'ioredis';
import { announcedCheckpointKey, ledReadModelRunner, RecordCopies } from '../../src/eventsourcing/led-projection';
import type { Leadership } from '../../src/infrastructure/cluster/leader-lease.port';
import { RedisBus } from '../../src/infrastructure/cluster/redis.bus';
import { RedisFencedWriter } from '../../src/infrastructure/cluster/redis.fenced-writer';
import { RedisLeaderLease } from '../../src/infrastructure/cluster/redis.leader-lease';
import { createEventStore } from '../../src/infrastructure/event-store/event-store.factory';
import {
  comparePositions,
  decodePosition,
  type EventStore,
  type GlobalPosition,
} from '../../src/infrastructure/event-store/event-store.port';
import { RedisReadModelStore } from '../../src/infrastructure/read-model/redis.read-model-store';
import { buildReadModelProjections } from '../../src/read-models/read-models.service';
import { SETTLE_DEADLINE_MS } from '../support/deadlines';
import { RedisTestContext, testRedisUrl } from '../support/redis';

const READ_MODELS = 'read-models';

/**
 * The order that keeps read-your-writes across instances with record copies: a batch that wrote a
 * covered key is announced (the checkpoint instances wait on and poll, and the leader's own
 * waiters) only after `dropped` resolved; one that wrote none is announced at once; a new leader
 * has everything dropped before it applies anything.
 */
describe('record copies: a batch is announced only after every copy of what it wrote was dropped', () => {
  const context = new RedisTestContext('record-copies-order');
  const dir = mkdtempSync(join(tmpdir(), 'trunkline-copies-order-'));
  let events: EventStore;
  let bus: RedisBus;
  let leadership: Leadership | undefined;

  beforeAll(async () => {
    events = await createEventStore({ dataDir: join(dir, 'events') });
  });
  afterAll(async () => {
    await leadership?.stop();
    await bus?.close();
    await events.close();
    await context.teardown();
    rmSync(dir, { recursive: true, force: true });
  });

  it('drops before it announces, and only for batches that wrote a covered key', async () => {
    const namespace = context.namespace();
    const prefix = `${namespace}rm:`;
    const redis: Redis = await context.client('leader');
    bus = await RedisBus.connect(testRedisUrl(), redis);
    const cluster = {
      redis,
      namespace,
      bus,
      lease: new RedisLeaderLease(redis, namespace, { ttlMs: 3000, instanceId: 'leader' }),
      writer: new RedisFencedWriter(redis, namespace),
    };
    let released = false;
    const log: string[] = [];
    const announced = async (): Promise<GlobalPosition | null> => {
      const stored = await redis.get(prefix + announcedCheckpointKey(READ_MODELS));
      return stored ? decodePosition(stored) : null;
    };
    let target: GlobalPosition | null = null;
    const copies: RecordCopies = {
      covers: (key) => key.startsWith('account:covered-'),
      dropped: async (keys) => {
        // While the drop is under way, nobody may learn of the batch.
        const seen = await announced();
        const ahead = target !== null && seen !== null && comparePositions(seen, target) >= 0;
        log.push(`dropped ${keys.join(',')} released=${released} announced-at-target=${ahead}`);
        await new Promise((resolve) => setTimeout(resolve, 200));
        log.push(`dropped done released=${released}`);
      },
      droppedAll: async () => {
        log.push('dropped all');
      },
    };
    const led = ledReadModelRunner(
      cluster,
      READ_MODELS,
      buildReadModelProjections({ decrypt: async () => 'pw' }, 'sip.test'),
      new RedisReadModelStore(redis, prefix),
      prefix,
      events,
      undefined,
      undefined,
      copies,
    );
    await led.shared.start();
    leadership = led.start(cluster.lease);

    // An account whose key is not covered: announced in the batch's own script.
    const account = await events.append(
      `account-${randomUUID()}`,
      [
        {
          id: randomUUID(),
          type: 'AccountCreated',
          data: { account_id: 'acct_1', name: 'n', created_at: '2026-11-21T10:00:00.000Z' },
        },
      ],
      'no_stream',
    );
    expect(await led.shared.waitFor(account.position, SETTLE_DEADLINE_MS)).toBe(true);
    expect(log).toEqual(['dropped all']);
    expect(comparePositions((await announced())!, account.position)).toBeGreaterThanOrEqual(0);

    // An account whose key is covered: dropped first, then the batch is announced.
    const covered = `covered-${randomUUID()}`;
    const coveredAppend = await events.append(
      `account-${covered}`,
      [
        {
          id: randomUUID(),
          type: 'AccountCreated',
          data: { account_id: covered, name: 'c', created_at: '2026-11-21T10:00:00.000Z' },
        },
      ],
      'no_stream',
    );
    target = coveredAppend.position;
    const waited = led.shared.waitFor(coveredAppend.position, SETTLE_DEADLINE_MS).then((reached) => {
      released = true;
      return reached;
    });
    expect(await waited).toBe(true);
    expect(log).toEqual([
      'dropped all',
      `dropped account:${covered} released=false announced-at-target=false`,
      'dropped done released=false',
    ]);
    expect(comparePositions((await announced())!, coveredAppend.position)).toBeGreaterThanOrEqual(0);
    // The resume checkpoint went with the batch itself.
    expect(await redis.get(`${prefix}checkpoint:${READ_MODELS}`)).toBe(
      await redis.get(prefix + announcedCheckpointKey(READ_MODELS)),
    );
  });
});
