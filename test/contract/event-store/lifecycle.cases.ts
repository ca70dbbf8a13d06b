import { type EventStore, VersionConflictError } from '../../../src/infrastructure/event-store/event-store.port';
import { CASE, type CaseRegistrar, type ContractContext } from './cases';
import {
  Follower,
  headPosition,
  ids,
  isStrictlyIncreasing,
  newEvent,
  newEvents,
  newPrefix,
  readAllOf,
  sleep,
} from './helpers';

const WRITERS = 16;
const APPENDS_PER_WRITER = 50;

/**
 * A command workload: each writer appends to its own stream with the exact expected revision,
 * and to shared streams by read → append(expected) → on conflict, read again.
 */
async function writer(store: EventStore, prefix: string, index: number): Promise<void> {
  let own: number | 'no_stream' = 'no_stream';
  for (let i = 0; i < APPENDS_PER_WRITER; i += 1) {
    if (i % 2 === 0) {
      own = (await store.append(`${prefix}-own-${index}`, [newEvent()], own)).nextExpectedVersion;
      continue;
    }
    const shared = `${prefix}-shared-${(index + i) % 4}`;
    const event = newEvent();
    for (;;) {
      const current = await store.readStream(shared);
      const expected = current.length === 0 ? 'no_stream' : current[current.length - 1].revision;
      try {
        await store.append(shared, [event], expected);
        break;
      } catch (error) {
        if (!(error instanceof VersionConflictError)) throw error;
      }
    }
  }
}

export function lifecycleCases(test: CaseRegistrar, ctx: ContractContext): void {
  test(CASE.concurrentWriters, async () => {
    const store = ctx.store();
    const head = await headPosition(store);
    const prefix = newPrefix('writers');
    const follower = new Follower(store, head, prefix, 100);
    await Promise.all(Array.from({ length: WRITERS }, (_, index) => writer(store, prefix, index)));
    const total = WRITERS * APPENDS_PER_WRITER;
    await follower.waitForCount(total);
    await sleep(100); // anything extra (a duplicate) would arrive now
    await follower.stop();
    const events = follower.events;
    expect(events).toHaveLength(total);
    expect(new Set(ids(events)).size).toBe(total);
    expect(isStrictlyIncreasing(events.map((e) => e.position))).toBe(true);
    const nextRevision = new Map<string, number>();
    for (const event of events) {
      expect(event.revision).toBe(nextRevision.get(event.streamId) ?? 0); // in order, no gaps
      nextRevision.set(event.streamId, event.revision + 1);
    }
    expect(ids(await readAllOf(store, head, prefix))).toEqual(ids(events));
  });

  test(CASE.resume, async () => {
    const prefix = newPrefix('resume');
    let store = ctx.store();
    const head = await headPosition(store);
    await store.append(prefix, newEvents(3), 'no_stream');
    const first = new Follower(store, head, prefix);
    await first.waitForCount(3);
    await first.stop();
    const checkpoint = first.events[2].position;
    const whileStopped = newEvents(2);
    await store.append(prefix, whileStopped, 2);
    store = await ctx.reopen();
    const afterRestart = newEvents(2);
    await store.append(prefix, afterRestart, 4);
    const second = new Follower(store, checkpoint, prefix);
    await second.waitForCount(4);
    await sleep(100);
    await second.stop();
    expect(ids(second.events)).toEqual([...ids(whileStopped), ...ids(afterRestart)]);
  });

  test(CASE.persistence, async () => {
    const stream = newPrefix('persist');
    let store = ctx.store();
    await expect(store.ping()).resolves.toBeUndefined();
    const events = newEvents(3);
    const result = await store.append(stream, events, 'no_stream');
    store = await ctx.reopen();
    await expect(store.ping()).resolves.toBeUndefined();
    const stored = await store.readStream(stream);
    expect(ids(stored)).toEqual(ids(events));
    expect(stored[2].position).toEqual(result.position);
    expect((await store.append(stream, [newEvent()], 2)).nextExpectedVersion).toBe(3);
  });
}
