import { encodePosition, GlobalPosition } from '../../../src/infrastructure/event-store/event-store.port';
import { CheckpointSource, SharedCheckpoint } from '../../../src/eventsourcing/shared-checkpoint';

const at = (n: number): GlobalPosition => ({ hi: BigInt(n), lo: BigInt(n) });

/** A stored checkpoint the test moves, and the announcements it sends by hand. */
function source(initial: number | null) {
  let stored: string | null = initial === null ? null : encodePosition(at(initial));
  let announce: (encoded: string) => void = () => undefined;
  let reads = 0;
  const checkpointSource: CheckpointSource = {
    read: async () => {
      reads += 1;
      return stored;
    },
    subscribe: async (onChange) => {
      announce = onChange;
    },
  };
  return {
    checkpointSource,
    store: (n: number | null) => (stored = n === null ? null : encodePosition(at(n))),
    announce: (n: number) => announce(encodePosition(at(n))),
    reads: () => reads,
  };
}

/** Lets the confirming read (a resolved promise) run. */
const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('SharedCheckpoint', () => {
  it('given the leader reported 5 directly, when the late announcement of 4 arrives, then no replay is told', async () => {
    const redis = source(3);
    const behind = jest.fn();
    const shared = new SharedCheckpoint(redis.checkpointSource, behind);
    await shared.start();
    redis.store(5);
    shared.observe(at(4));
    shared.observe(at(5));
    redis.announce(4); // pub/sub delivered after the leader's own report of a newer one
    await settle();
    expect(behind).not.toHaveBeenCalled();
    expect(shared.checkpoint).toEqual(at(5));
    shared.stop();
  });

  it('given 5 was seen, when the stored checkpoint is back at 2 and announced, then a replay is told', async () => {
    const redis = source(5);
    const behind = jest.fn();
    const shared = new SharedCheckpoint(redis.checkpointSource, behind);
    await shared.start();
    redis.store(2);
    redis.announce(2);
    await settle();
    expect(behind).toHaveBeenCalledTimes(1);
    shared.stop();
  });

  it('given 5 was seen, when the stored checkpoint is gone (flushed), then a replay is told', async () => {
    const redis = source(5);
    const behind = jest.fn();
    const shared = new SharedCheckpoint(redis.checkpointSource, behind);
    await shared.start();
    redis.store(null);
    redis.announce(1);
    await settle();
    expect(behind).toHaveBeenCalledTimes(1);
    shared.stop();
  });

  it('releases a waiter once an announcement reaches its position', async () => {
    const redis = source(1);
    const shared = new SharedCheckpoint(redis.checkpointSource);
    await shared.start();
    const waiting = shared.waitFor(at(3), 300_000);
    redis.store(3);
    redis.announce(3);
    await expect(waiting).resolves.toBe(true);
    expect(redis.reads()).toBeGreaterThanOrEqual(1);
    shared.stop();
  });
});
