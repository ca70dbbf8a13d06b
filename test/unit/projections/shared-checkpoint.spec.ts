import { encodePosition, GlobalPosition } from '../../../src/infrastructure/event-store/event-store.port';
import { CheckpointSource, SharedCheckpoint } from '../../../src/eventsourcing/shared-checkpoint';

const at = (n: number): GlobalPosition => ({ hi: BigInt(n), lo: BigInt(n) });

/** A stored checkpoint the test moves, and the announcements it sends by hand. */
function source(initial: number | null) {
  let stored: string | null = initial === null ? null : encodePosition(at(initial));
  let announce: (encoded: string) => void = () => undefined;
  let reads = 0;
  /** While set, a read answers what was stored when it was asked, only once released (a round trip). */
  let held: Promise<void> | null = null;
  const checkpointSource: CheckpointSource = {
    read: async () => {
      reads += 1;
      const answer = stored;
      if (held) await held;
      return answer;
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
    /** Holds the answers of reads asked from now until the returned release is called. */
    hold: () => {
      let release: () => void = () => undefined;
      held = new Promise((resolve) => (release = resolve));
      return () => {
        held = null;
        release();
      };
    },
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

  it('given the late announcement of 4 made it read 5, when 6 is reported before that read answers, then no replay is told', async () => {
    // The delete of a trunk: TrunkDeleted (5) announced, the reservations' releases (6) written and
    // reported by the leader while the read confirming a late announcement was on its way back.
    const redis = source(5);
    const behind = jest.fn();
    const shared = new SharedCheckpoint(redis.checkpointSource, behind);
    await shared.start();
    const release = redis.hold();
    redis.announce(4);
    await settle(); // the confirming read is asked: Redis answers 5
    redis.store(6);
    shared.observe(at(6));
    release();
    await settle();
    expect(behind).not.toHaveBeenCalled();
    expect(shared.checkpoint).toEqual(at(6));
    shared.stop();
  });

  it('given 5 was seen, when a confirming read finds 2 while 6 is reported, then a replay is told', async () => {
    const redis = source(5);
    const behind = jest.fn();
    const shared = new SharedCheckpoint(redis.checkpointSource, behind);
    await shared.start();
    const release = redis.hold();
    redis.store(2);
    redis.announce(2);
    await settle();
    shared.observe(at(6));
    release();
    await settle();
    expect(behind).toHaveBeenCalledTimes(1);
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
