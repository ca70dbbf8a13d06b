import { isDeepStrictEqual } from 'node:util';
import { EventStore, StoredEvent } from '../../src/infrastructure/event-store/event-store.port';
import { MemoryReadModelStore } from '../../src/infrastructure/read-model/memory.read-model-store';
import { ReadModelStore } from '../../src/infrastructure/read-model/read-model-store.port';
import { Projection } from '../../src/eventsourcing/projection';
import { ProjectionRunner } from '../../src/eventsourcing/projection-runner';
import { DomainError } from '../../src/shared/domain-error';
import { ScriptedFeed, SpecEvent, storedEvents } from './scripted-feed';

export { RECORDED_AT, storedAs } from './scripted-feed';
export type { SpecEvent, StoredAs } from './scripted-feed';

/** What a read-side lookup answers, or null where it answers not_found. */
export async function found<T>(lookup: Promise<T>): Promise<T | null> {
  try {
    return await lookup;
  } catch (error) {
    if (error instanceof DomainError && error.code === 'not_found') return null;
    throw error;
  }
}

/** Follows an event store and writes a read model: the projection runner, the trunk dimension projector. */
export interface Follower {
  start(): Promise<void>;
  stop(): Promise<void>;
}

/** A fresh, empty read model and the follower that writes it; readers read `store`. */
export type SpecTarget<Store> = (feed: EventStore) => Promise<{ follower: Follower; store: Store }>;

/**
 * The read-model store's own runner over the memory adapter (Redis's semantics, same port), with
 * the projections in the order given, as the runner applies them to each event.
 */
export const readModelTarget =
  (projections: Projection[]): SpecTarget<ReadModelStore> =>
  async (feed) => {
    const store = new MemoryReadModelStore();
    return { store, follower: new ProjectionRunner('spec', projections, store, feed) };
  };

/**
 * given(events).when(events).then(state) | .thenNothingChanged() | .thenFails(error), where the
 * state is what `read` sees in the read model. Events go through the real ProjectionRunner into the
 * memory store, cut into batches each way the runner may cut them (given then when, all at once,
 * one by one): every cut must give the same state. An event given twice (equal type, data and
 * `stored`) is one stored event delivered again, as in a replay.
 */
export function projectionSpec<S>(projections: Projection | Projection[], read: (store: ReadModelStore) => Promise<S>) {
  return followerSpec(readModelTarget([projections].flat()), read);
}

export function followerSpec<Store, S>(target: SpecTarget<Store>, read: (store: Store) => Promise<S>) {
  return {
    given: (...history: SpecEvent[]) => ({
      when(...events: SpecEvent[]) {
        const [given, when] = storedEvents(history, events);
        const stateAfter = async (batches: StoredEvent[][]): Promise<S> => {
          const run = await started(target);
          try {
            for (const batch of withoutRepeats(batches)) await run.feed.deliver(batch);
            return await read(run.store);
          } finally {
            await run.follower.stop();
          }
        };
        const byCut = (state: (cut: Cut) => Promise<S>) => statesByCut(Object.keys(CUTS) as Cut[], state);
        return {
          /** Every cut of the events into batches leaves the reader seeing `expected`. */
          then: (expected: S) =>
            awaited(async () =>
              expectByCut(await byCut((cut) => stateAfter(CUTS[cut](given, when))), await byCut(async () => expected)),
            ),
          /** The reader sees after the `when` events what it saw before them. */
          thenNothingChanged: () =>
            awaited(async () =>
              expectByCut(
                await byCut((cut) => stateAfter(CUTS[cut](given, when))),
                await byCut((cut) => stateAfter(CUTS[cut](given, []))),
              ),
            ),
          /** The batch of `when` events is refused with `error`, and nothing of it is written. */
          thenFails: (error: string | RegExp | (new (...args: never[]) => Error)) =>
            awaited(async () => {
              const run = await started(target);
              try {
                await run.feed.deliver(given);
                const before = await read(run.store);
                await expect(run.feed.deliver(when)).rejects.toThrow(error);
                expect(await read(run.store)).toEqual(before);
              } finally {
                await run.follower.stop();
              }
            }),
        };
      },
    }),
  };
}

/** The ways a runner may cut the same events into batches: a live follower, a catch-up, a replay. */
const CUTS = {
  'given, then when': (given: StoredEvent[], when: StoredEvent[]) => [given, when],
  'all in one batch': (given: StoredEvent[], when: StoredEvent[]) => [[...given, ...when]],
  'one event per batch': (given: StoredEvent[], when: StoredEvent[]) => [...given, ...when].map((e) => [e]),
};
type Cut = keyof typeof CUTS;

async function statesByCut<S>(cuts: Cut[], state: (cut: Cut) => Promise<S>): Promise<Record<string, S>> {
  const out: Record<string, S> = {};
  for (const cut of cuts) out[cut] = await state(cut);
  return out;
}

/** A store never hands one event twice in a batch: a repeat starts a batch of its own, as a re-delivery does. */
function withoutRepeats(batches: StoredEvent[][]): StoredEvent[][] {
  const out: StoredEvent[][] = [];
  for (const batch of batches) {
    const current: StoredEvent[] = [];
    for (const event of batch) {
      if (current.includes(event)) out.push(current.splice(0));
      current.push(event);
    }
    out.push(current);
  }
  return out;
}

/** One diff when every cut saw the same state; by cut when they disagree (a batch-boundary bug). */
function expectByCut<S>(seen: Record<string, S>, expected: Record<string, S>): void {
  const [first, ...others] = Object.values(seen);
  if (others.every((state) => isDeepStrictEqual(state, first))) expect(first).toEqual(Object.values(expected)[0]);
  else expect(seen).toEqual(expected);
}

async function started<Store>(target: SpecTarget<Store>) {
  const feed = new ScriptedFeed();
  const { follower, store } = await target(feed);
  await follower.start();
  return { feed, follower, store };
}

/**
 * A spec's assertion runs when awaited; one never awaited would pass without asserting anything,
 * so each is tracked until awaited and a test that leaves one behind fails.
 */
const unawaited = new Set<object>();

function awaited(assertion: () => Promise<void>): PromiseLike<void> {
  const handle: PromiseLike<void> = {
    then: (onDone, onError) => {
      unawaited.delete(handle);
      return assertion().then(onDone, onError);
    },
  };
  unawaited.add(handle);
  return handle;
}

afterEach(() => {
  const left = unawaited.size;
  unawaited.clear();
  if (left > 0) throw new Error(`${left} projection spec(s) never awaited: prefix each with await`);
});
