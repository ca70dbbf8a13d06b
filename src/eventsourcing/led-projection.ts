import { EventStore, GlobalPosition } from '../infrastructure/event-store/event-store.port';
import { ClusterServices } from '../infrastructure/cluster/cluster.port';
import { checkpointChannel } from '../infrastructure/cluster/lease-keys';
import { FencedOffError, LeaderLease, LeaderTerm, Leadership } from '../infrastructure/cluster/leader-lease.port';
import { ReadModelStore } from '../infrastructure/read-model/read-model-store.port';
import { Projection } from './projection';
import { ProjectionRunner } from './projection-runner';
import { CheckpointSource, SharedCheckpoint } from './shared-checkpoint';

/** Where a read-model runner reports the signs of a restore (RestoreWatch). */
export interface RestoreSignals {
  /** The runner resumes from a checkpoint (null: from nothing). */
  onResume?: (checkpoint: GlobalPosition | null) => void;
  /** A checkpoint older than one already seen appeared: the store is being replayed. */
  onBehind?: () => void;
}

/** Something a leader starts when its term begins and stops when it ends. */
export interface Startable {
  start(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * A hash in the read-model namespace whose `events` field counts every event applied (of the
 * runner's types: CheckpointedFollower.applyBatch), in the same script as the writes: equal to the
 * number of events of those types in the store when each was applied once.
 */
export const appliedKey = (name: string): string => `projection-stats:${name}`;

/**
 * The checkpoint the instances wait on when the runner has RecordCopies: written only once every
 * instance dropped its copies of what the batch changed, while `checkpoint:<name>` (where the
 * runner resumes) is written with the batch itself.
 */
export const announcedCheckpointKey = (name: string): string => `checkpoint-announced:${name}`;

/**
 * Copies of read-model records held by instances (the request gate's record cache): a batch that
 * writes a key they cover is announced only after every instance dropped its copy, so the
 * read-your-writes wait of a write covers every instance's copy as well as the store.
 */
export interface RecordCopies {
  /** Whether any instance may hold a copy of `key` (a read-model key, no namespace). */
  covers(key: string): boolean;
  /** Resolves once every live instance dropped its copies of `keys` (or after a bounded wait, logged). */
  dropped(keys: readonly string[]): Promise<void>;
  /** Resolves once every live instance dropped all its copies (likewise bounded). */
  droppedAll(): Promise<void>;
}

/** Runs `work` on this instance only while it holds the lease `name`. */
export function runWhileLeading(lease: LeaderLease, name: string, work: (term: LeaderTerm) => Startable): Leadership {
  return lease.runWhileLeader(name, async (term) => {
    const started = work(term);
    await started.start();
    try {
      await new Promise<void>((resolve) =>
        term.signal.aborted ? resolve() : term.signal.addEventListener('abort', () => resolve(), { once: true }),
      );
    } finally {
      await started.stop();
    }
  });
}

/** The shared checkpoint `key` (full Redis key) announced on the projection's channel. */
export function redisCheckpointSource(
  cluster: ClusterServices,
  name: string,
  read: () => Promise<string | null>,
): CheckpointSource {
  return {
    read,
    subscribe: async (onChange, onResync) => {
      cluster.bus.onResync(onResync);
      await cluster.bus.subscribe(checkpointChannel(cluster.namespace, name), onChange);
    },
  };
}

/**
 * The read-model runner of one instance among many: it writes (fenced) only while leading; every
 * instance waits on the shared checkpoint, which the leader's own writes also feed directly.
 *
 * With `copies` (instances cache records), a batch that writes a covered key is written with its
 * resume checkpoint but not announced; once every instance dropped its copies of those keys, the
 * announcement writes the checkpoint the instances wait on (announcedCheckpointKey) and publishes
 * it. Instances never learn of a position (announcement, poll or the leader's own report) before
 * their copies of what it changed are gone. A new leader first has every instance drop all its
 * copies and announces where it resumes: its predecessor may have died between a write and its drop.
 */
export function ledReadModelRunner(
  cluster: ClusterServices,
  name: string,
  projections: Projection[],
  store: ReadModelStore,
  storePrefix: string,
  events: EventStore,
  batchSize?: number,
  restores?: RestoreSignals,
  copies?: RecordCopies,
): { runner: ProjectionRunner; shared: SharedCheckpoint; start(lease: LeaderLease): Leadership } {
  let term: LeaderTerm | null = null;
  const channel = checkpointChannel(cluster.namespace, name);
  const resumeKey = `checkpoint:${name}`;
  const waitedKey = copies ? announcedCheckpointKey(name) : resumeKey;
  const shared = new SharedCheckpoint(
    redisCheckpointSource(cluster, name, () => store.get(waitedKey)),
    restores?.onBehind,
  );
  const runner = new ProjectionRunner(name, projections, store, events, {
    batchSize,
    onResume: restores?.onResume,
    writer: async (ops, checkpoint, count) => {
      // Only a leader's runner runs; a rebuild() asked of a follower has nothing to write with.
      const current = term;
      if (!current) throw new FencedOffError(name);
      const target = {
        key: storePrefix + checkpoint.key,
        value: checkpoint.value,
        channel,
        ...(copies && { announcedKey: storePrefix + waitedKey }),
      };
      const touched = copies ? [...new Set(ops.map((op) => op.key))].filter((key) => copies.covers(key)) : [];
      const applied = { key: storePrefix + appliedKey(name), events: count };
      await cluster.writer.write(current, storePrefix, ops, target, applied, touched.length > 0);
      if (!copies || touched.length === 0) return;
      await copies.dropped(touched);
      await cluster.writer.announce(current, { key: storePrefix + waitedKey, channel, value: checkpoint.value });
    },
    onCheckpoint: (position: GlobalPosition) => shared.observe(position),
  });
  const announceResume = async (current: LeaderTerm): Promise<void> => {
    const saved = await store.get(resumeKey);
    await copies!.droppedAll();
    if (saved) await cluster.writer.announce(current, { key: storePrefix + waitedKey, channel, value: saved });
  };
  return {
    runner,
    shared,
    start: (lease) =>
      runWhileLeading(lease, name, (current) => {
        term = current;
        if (!copies) return runner;
        return {
          start: async () => {
            await announceResume(current);
            await runner.start();
          },
          stop: () => runner.stop(),
        };
      }),
  };
}

/** A projection whose store is this process's own: it runs here from boot to shutdown. */
export async function startHere(projection: Startable): Promise<Leadership> {
  await projection.start();
  return { leading: true, stop: () => projection.stop() };
}

/**
 * A runner of the read-model store, set up for where that store lives: with cluster services
 * (Redis) it writes only while leading and writes wait on the shared checkpoint (after every
 * instance dropped its `copies` of what changed); without, it runs here and waits on its own.
 * `start()` begins leading (or running); `shared` is null locally.
 */
export function readModelRunner(
  cluster: ClusterServices | null,
  name: string,
  projections: Projection[],
  store: ReadModelStore,
  storePrefix: string,
  events: EventStore,
  batchSize: number,
  restores?: RestoreSignals,
  copies?: RecordCopies,
): { runner: ProjectionRunner; shared: SharedCheckpoint | null; start(): Promise<Leadership> } {
  if (cluster) {
    const led = ledReadModelRunner(cluster, name, projections, store, storePrefix, events, batchSize, restores, copies);
    return { runner: led.runner, shared: led.shared, start: async () => led.start(cluster.lease) };
  }
  const runner = new ProjectionRunner(name, projections, store, events, { batchSize, onResume: restores?.onResume });
  return { runner, shared: null, start: () => startHere(runner) };
}
