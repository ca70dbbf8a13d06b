import type { EventStore, StoredEvent } from '../../../src/infrastructure/event-store/event-store.port';
import { CASE, type CaseRegistrar, type ContractContext } from './cases';
import { SETTLE_DEADLINE_MS } from '../../support/deadlines';
import { Follower, headPosition, ids, isStrictlyIncreasing, newEvent, newPrefix, sleep, waitUntil } from './helpers';

/**
 * An idle poll this long never fires while a case runs: a follower opened with it sees an append
 * only if the append woke it (a signal in the process, LISTEN/NOTIFY between processes, the
 * server's push), which is what the wake cases show, without timing anything.
 */
const POLL_NEVER_MS = 6 * 3_600_000;

/** 10 appends made while the follower is idle, each delivered before the next is made. */
async function appendWhileIdle(writer: EventStore, follower: Follower, prefix: string): Promise<void> {
  for (let i = 0; i < 10; i += 1) {
    await sleep(30 + Math.random() * 20); // let the follower go idle, so a wake-up is what is tested
    const event = newEvent();
    await writer.append(`${prefix}-${i}`, [event], 'no_stream');
    await waitUntil(
      () => follower.events.some((e) => e.id === event.id),
      SETTLE_DEADLINE_MS,
      () => `delivery of append ${i} (it did not wake the idle follower)`,
    );
  }
}

export function subscribeCases(test: CaseRegistrar, ctx: ContractContext): void {
  test(CASE.batchesInOrder, async () => {
    const store = ctx.store();
    const head = await headPosition(store);
    const prefix = newPrefix('batches');
    let inFlight = 0;
    let maxInFlight = 0;
    const received: StoredEvent[] = [];
    const sizes: number[] = [];
    const subscription = store.subscribe({ after: head, batchSize: 7 }, async (batch) => {
      maxInFlight = Math.max(maxInFlight, (inFlight += 1));
      sizes.push(batch.length);
      await sleep(5);
      received.push(...batch.filter((e) => e.streamId.startsWith(prefix)));
      inFlight -= 1;
    });
    const appended = [];
    for (let i = 0; i < 30; i += 1) {
      const event = newEvent();
      await store.append(`${prefix}-${i % 4}`, [event], 'any');
      appended.push(event);
    }
    await waitUntil(
      () => received.length >= 30,
      SETTLE_DEADLINE_MS,
      () => `${received.length} of 30`,
    );
    await subscription.stop();
    expect(ids(received)).toEqual(ids(appended));
    expect(isStrictlyIncreasing(received.map((e) => e.position))).toBe(true);
    expect(maxInFlight).toBe(1);
    expect(Math.max(...sizes)).toBeLessThanOrEqual(7);
  });

  test(CASE.wakeSameInstance, async () => {
    const store = await ctx.reopen({ idlePollMs: POLL_NEVER_MS });
    try {
      const prefix = newPrefix('wake');
      const follower = new Follower(store, await headPosition(store), prefix);
      await appendWhileIdle(store, follower, prefix);
      await follower.stop();
      expect(follower.events).toHaveLength(10);
    } finally {
      await ctx.reopen();
    }
  });

  test(CASE.wakeOtherInstance, async () => {
    const store = await ctx.reopen({ idlePollMs: POLL_NEVER_MS });
    const other = await ctx.open();
    try {
      const prefix = newPrefix('wake-other');
      const follower = new Follower(store, await headPosition(store), prefix);
      await sleep(300); // the follower's first read and its listener connection
      await appendWhileIdle(other, follower, prefix);
      await follower.stop();
      expect(follower.events).toHaveLength(10);
    } finally {
      await other.close();
      await ctx.reopen();
    }
  });

  test(CASE.handlerRetry, async () => {
    const store = ctx.store();
    const head = await headPosition(store);
    const prefix = newPrefix('retry');
    const appended = [newEvent(), newEvent(), newEvent()];
    const failOn = appended[1].id;
    let failures = 0;
    const attempts: string[][] = [];
    const delivered: StoredEvent[] = [];
    const subscription = store.subscribe({ after: head }, async (batch) => {
      const ours = batch.filter((e) => e.streamId.startsWith(prefix));
      attempts.push(ids(ours));
      if (ours.some((e) => e.id === failOn) && failures < 2) {
        failures += 1;
        throw new Error('projection failed (on purpose)');
      }
      delivered.push(...ours);
    });
    for (const event of appended) await store.append(prefix, [event], 'any');
    await waitUntil(
      () => delivered.length >= 3,
      SETTLE_DEADLINE_MS,
      () => `${delivered.length} of 3`,
    );
    await sleep(50);
    await subscription.stop();
    expect(failures).toBe(2);
    expect(ids(delivered)).toEqual(ids(appended));
    const failedAttempts = attempts.filter((a) => a.includes(failOn));
    expect(failedAttempts).toHaveLength(3);
    expect(failedAttempts[1]).toEqual(failedAttempts[0]); // the same batch again, not a shorter one
  });

  test(CASE.stopWaits, async () => {
    const store = ctx.store();
    const head = await headPosition(store);
    const prefix = newPrefix('stop');
    let started = 0;
    let finished = 0;
    const subscription = store.subscribe({ after: head }, async (batch) => {
      if (!batch.some((e) => e.streamId.startsWith(prefix))) return;
      started += 1;
      await sleep(200);
      finished += 1;
    });
    await store.append(prefix, [newEvent()], 'no_stream');
    await waitUntil(
      () => started === 1,
      SETTLE_DEADLINE_MS,
      () => 'handler start',
    );
    await subscription.stop();
    expect(finished).toBe(1);
    await store.append(prefix, [newEvent()], 0);
    await sleep(300);
    expect(started).toBe(1);
  });
}
