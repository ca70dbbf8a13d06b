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
 * A hash in the read-model namespace whose `events` field counts every event applied, in the same
 * script as the writes: equal to the number of events in the store when each was applied once.
 */
export const appliedKey = (name: string): string => `projection-stats:${name}`;

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
): { runner: ProjectionRunner; shared: SharedCheckpoint; start(lease: LeaderLease): Leadership } {
  let term: LeaderTerm | null = null;
  const channel = checkpointChannel(cluster.namespace, name);
  const shared = new SharedCheckpoint(
    redisCheckpointSource(cluster, name, () => store.get(`checkpoint:${name}`)),
    restores?.onBehind,
  );
  const runner = new ProjectionRunner(name, projections, store, events, {
    batchSize,
    onResume: restores?.onResume,
    writer: (ops, checkpoint, count) => {
      // Only a leader's runner runs; a rebuild() asked of a follower has nothing to write with.
      if (!term) throw new FencedOffError(name);
      return cluster.writer.write(
        term,
        storePrefix,
        ops,
        { key: storePrefix + checkpoint.key, value: checkpoint.value, channel },
        { key: storePrefix + appliedKey(name), events: count },
      );
    },
    onCheckpoint: (position: GlobalPosition) => shared.observe(position),
  });
  return {
    runner,
    shared,
    start: (lease) =>
      runWhileLeading(lease, name, (current) => {
        term = current;
        return runner;
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
 * (Redis) it writes only while leading and writes wait on the shared checkpoint; without, it runs
 * here and waits on its own. `start()` begins leading (or running); `shared` is null locally.
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
): { runner: ProjectionRunner; shared: SharedCheckpoint | null; start(): Promise<Leadership> } {
  if (cluster) {
    const led = ledReadModelRunner(cluster, name, projections, store, storePrefix, events, batchSize, restores);
    return { runner: led.runner, shared: led.shared, start: async () => led.start(cluster.lease) };
  }
  const runner = new ProjectionRunner(name, projections, store, events, { batchSize, onResume: restores?.onResume });
  return { runner, shared: null, start: () => startHere(runner) };
}
