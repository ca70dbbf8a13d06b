import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createEventStore } from '../../../src/infrastructure/event-store/event-store.factory';
import type { EventStore, GlobalPosition, StoredEvent } from '../../../src/infrastructure/event-store/event-store.port';
import { catchUpTogether, type CatchUpFollower } from '../../../src/eventsourcing/catch-up';

/** A follower that records what it is handed, from a given checkpoint. */
function recorder(name: string, from: GlobalPosition | null, failAt?: number) {
  const batches: string[][] = [];
  const follower: CatchUpFollower = {
    name,
    resume: async () => from,
    applyBatch: async (batch: StoredEvent[]) => {
      if (failAt !== undefined && batches.flat().length + batch.length > failAt) throw new Error('store away');
      batches.push(batch.map((e) => (e.data as { n: string }).n));
    },
  };
  return { follower, batches };
}

describe('catchUpTogether', () => {
  let dir: string;
  let store: EventStore;
  let positions: GlobalPosition[];
  let reads: number;
  let counted: EventStore;
  const names = Array.from({ length: 25 }, (_, i) => `e${i}`);

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'catch-up-spec-'));
    store = await createEventStore({ dataDir: dir });
    positions = [];
    for (const [i, n] of names.entries()) {
      const { position } = await store.append(
        `s-${i % 4}`,
        [{ id: crypto.randomUUID(), type: 'Noted', data: { n } }],
        'any',
      );
      positions.push(position);
    }
    counted = Object.assign(Object.create(store) as EventStore, {
      readAll: (options: Parameters<EventStore['readAll']>[0]) => ((reads += 1), store.readAll(options)),
    });
  }, 60_000);

  beforeEach(() => (reads = 0));

  afterAll(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('reads each page once for all followers and hands each the events after its own checkpoint, in order', async () => {
    const fromStart = recorder('a', null);
    const fromTenth = recorder('b', positions[9]);
    await catchUpTogether(counted, [fromStart.follower, fromTenth.follower], 10);
    expect(fromStart.batches).toEqual([names.slice(0, 10), names.slice(10, 20), names.slice(20)]);
    expect(fromTenth.batches.flat()).toEqual(names.slice(10));
    expect(reads).toBe(3);
  });

  it('starts at the earliest checkpoint and skips a follower that is already at the head', async () => {
    const done = recorder('done', positions[24]);
    const late = recorder('late', positions[19]);
    await catchUpTogether(counted, [done.follower, late.follower], 10);
    expect(done.batches).toEqual([]);
    expect(late.batches.flat()).toEqual(names.slice(20));
    expect(reads).toBe(1);
  });

  it('throws a failed batch, leaving what was applied before it', async () => {
    const failing = recorder('failing', null, 15);
    await expect(catchUpTogether(counted, [failing.follower], 10)).rejects.toThrow('store away');
    expect(failing.batches).toEqual([names.slice(0, 10)]);
  });
});
