import type { EventStore, StoredEvent } from '../../../src/infrastructure/event-store/event-store.port';
import { CASE, type CaseRegistrar, type ContractContext } from './cases';
import {
  Follower,
  headPosition,
  ids,
  isStrictlyIncreasing,
  median,
  newEvent,
  newPrefix,
  sleep,
  waitUntil,
} from './helpers';

/** Milliseconds from each append's completion to its delivery, for 10 appends made while idle. */
async function wakeLatencies(writer: EventStore, follower: Follower, prefix: string): Promise<number[]> {
  const latencies: number[] = [];
  for (let i = 0; i < 10; i += 1) {
    await sleep(30 + Math.random() * 20); // let the follower go idle, so a wake-up is what is measured
    const event = newEvent();
    await writer.append(`${prefix}-${i}`, [event], 'no_stream');
    const appendedAt = process.hrtime.bigint();
    await waitUntil(
      () => follower.events.some((e) => e.id === event.id),
      2000,
      () => `delivery of append ${i}`,
    );
    const delivery = follower.deliveries.find((d) => d.event.id === event.id)!;
    latencies.push(Math.max(0, Number(delivery.receivedAt - appendedAt) / 1e6));
  }
  return latencies;
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
      10_000,
      () => `${received.length} of 30`,
    );
    await subscription.stop();
    expect(ids(received)).toEqual(ids(appended));
    expect(isStrictlyIncreasing(received.map((e) => e.position))).toBe(true);
    expect(maxInFlight).toBe(1);
    expect(Math.max(...sizes)).toBeLessThanOrEqual(7);
  });

  test(CASE.wakeSameInstance, async () => {
    const store = ctx.store();
    const prefix = newPrefix('wake');
    const follower = new Follower(store, await headPosition(store), prefix);
    const latencies = await wakeLatencies(store, follower, prefix);
    await follower.stop();
    expect(median(latencies)).toBeLessThan(20);
    expect(Math.max(...latencies)).toBeLessThan(100);
  });

  test(CASE.wakeOtherInstance, async () => {
    const store = ctx.store();
    const other = await ctx.open();
    try {
      const prefix = newPrefix('wake-other');
      const follower = new Follower(store, await headPosition(store), prefix);
      await sleep(300); // the follower's first read and its listener connection
      const latencies = await wakeLatencies(other, follower, prefix);
      await follower.stop();
      // The idle poll alone would give a median near half its period (~125ms).
      expect(median(latencies)).toBeLessThan(50);
      expect(Math.max(...latencies)).toBeLessThan(250);
    } finally {
      await other.close();
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
      10_000,
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
      5000,
      () => 'handler start',
    );
    await subscription.stop();
    expect(finished).toBe(1);
    await store.append(prefix, [newEvent()], 0);
    await sleep(300);
    expect(started).toBe(1);
  });
}
