import {
  decodePosition,
  encodePosition,
  EventStore,
  GlobalPosition,
  StoredEvent,
} from '../infrastructure/event-store/event-store.port';
import { ReadModelStore, WriteOp } from '../infrastructure/read-model/read-model-store.port';
import { BatchView, compactOps } from './batch-view';
import { catchUpTogether, CatchUpFollower } from './catch-up';
import { CheckpointedFollower } from './checkpointed-follower';
import { Projection } from './projection';

export interface ProjectionStatus {
  name: string;
  checkpoint: string | null;
  /** Age of the oldest event not yet applied; 0 when caught up with the store. */
  lagMs: number;
  caughtUp: boolean;
}

/**
 * Writes one batch's ops and the checkpoint after them atomically. The default writes through the
 * store's MULTI; a leader among instances passes a fenced writer, which refuses the batch once
 * another instance holds the lease.
 */
export type BatchWriter = (ops: WriteOp[], checkpoint: { key: string; value: string }, events: number) => Promise<void>;

export interface ProjectionRunnerOptions {
  writer?: BatchWriter;
  /** The most events read and written at once (ProjectionSettings.batchSize); CATCH_UP_BATCH_SIZE by default. */
  batchSize?: number;
  /** Told each checkpoint once it is written (the instance's shared-checkpoint view). */
  onCheckpoint?: (position: GlobalPosition) => void;
  /** Told where it resumes (null: from nothing, a replay of every event), before it applies anything. */
  onResume?: (checkpoint: GlobalPosition | null) => void;
}

/**
 * Follows the event store from a checkpoint kept in the read-model store itself, written in the
 * same atomic batch as the projection's writes: a crash between the two cannot happen, so a
 * restart neither loses nor repeats an event's effect.
 */
export class ProjectionRunner extends CheckpointedFollower {
  /** The projections that apply each event type, in their order (projectionsFor). */
  private readonly routes = new Map<string, Projection[]>();

  constructor(
    name: string,
    private readonly projections: Projection[],
    private readonly store: ReadModelStore,
    events: EventStore,
    private readonly options: ProjectionRunnerOptions = {},
  ) {
    super(name, events, options.batchSize, typesOfProjections(projections));
  }

  private get checkpointKey(): string {
    return `checkpoint:${this.name}`;
  }

  protected async loadCheckpoint(): Promise<GlobalPosition | null> {
    const saved = await this.store.get(this.checkpointKey);
    return saved ? decodePosition(saved) : null;
  }

  protected override resumed(checkpoint: GlobalPosition | null): void {
    this.options.onResume?.(checkpoint);
  }

  protected override committed(position: GlobalPosition): void {
    this.options.onCheckpoint?.(position);
  }

  /**
   * Drops every read model of this store and replays all events from the start. The clear is
   * store-wide: when other runners share the store, rebuild them together (rebuildTogether).
   */
  rebuild(): Promise<void> {
    return rebuildTogether(this.store, [this]);
  }

  /** Forgets the checkpoint (after its store was cleared): the next start replays everything. */
  forgetCheckpoint(): void {
    this.checkpoint = null;
  }

  /** Compares the checkpoint with the store: one small read, for /readyz and logs. */
  async status(now: Date = new Date()): Promise<ProjectionStatus> {
    // Not running here (another instance leads): the shared checkpoint is the one that counts.
    const saved = this.following ? null : await this.store.get(this.checkpointKey);
    const checkpoint = saved ? decodePosition(saved) : this.checkpoint;
    const [next] = await this.events.readAll({ after: checkpoint, maxCount: 1 });
    const lagMs = next ? Math.max(0, now.getTime() - next.recordedAt.getTime()) : 0;
    return { name: this.name, checkpoint: checkpoint ? encodePosition(checkpoint) : null, lagMs, caughtUp: !next };
  }

  /** The batch's writes and its checkpoint in one atomic write (fenced when leading among instances). */
  protected async commit(batch: StoredEvent[], last: GlobalPosition): Promise<void> {
    const ops = await this.writesOf(batch);
    const checkpoint = { key: this.checkpointKey, value: encodePosition(last) };
    if (this.options.writer) await this.options.writer(ops, checkpoint, batch.length);
    else await this.store.write([...ops, { op: 'set', ...checkpoint }]);
  }

  private async writesOf(batch: StoredEvent[]): Promise<WriteOp[]> {
    const view = new BatchView(this.store);
    await Promise.all(this.projections.map((projection) => projection.prefetch?.(batch, view)));
    const ops: WriteOp[] = [];
    // Indexed loops: iterators held across an await are allocated, one per loop per event.
    for (let i = 0; i < batch.length; i++) {
      const event = batch[i];
      const route = this.projectionsFor(event.type);
      for (let j = 0; j < route.length; j++) {
        const applied = route[j].apply(event, view);
        // Most events apply from what the batch already holds: no await, no microtask each.
        const writes = Array.isArray(applied) ? applied : await applied;
        for (let k = 0; k < writes.length; k++) {
          view.record(writes[k]);
          ops.push(writes[k]);
        }
      }
    }
    return compactOps(ops);
  }

  /** Those that name the type (or name none), in order: the others would return [] for it. */
  private projectionsFor(type: string): Projection[] {
    let route = this.routes.get(type);
    if (!route) {
      route = this.projections.filter((projection) => !projection.types || projection.types.includes(type));
      this.routes.set(type, route);
    }
    return route;
  }
}

/** The types a runner reads: those its projections name, or null (every type) if one names none. */
function typesOfProjections(projections: readonly Projection[]): readonly string[] | null {
  if (projections.some((projection) => !projection.types)) return null;
  return [...new Set(projections.flatMap((projection) => projection.types!))];
}

/** A follower rebuilt with the read-model runners (the trunk dimension, in the rebuild benchmark). */
export interface RebuiltFollower extends CatchUpFollower {
  readonly batchSize: number;
  start(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * A runner's catch-up run off the reading thread (src/cli/read-models-worker.ts: a worker thread
 * with its own event-store reader and read-model store connection): it replays the runner's
 * events from the checkpoint in the shared store to the head of the event store, writing the same
 * batches and checkpoints the runner would. The runner itself follows on from that checkpoint.
 */
export interface CatchUpElsewhere {
  readonly runner: ProjectionRunner;
  run(pageSize: number): Promise<void>;
}

/**
 * Rebuilds every runner that writes into one store: all stop, the store is cleared once, all
 * replay from the start. Clearing under a runner that keeps going would leave its read models
 * empty behind a checkpoint that says they are complete. The replay reads the history once for
 * all of them (catch-up.ts), `others` (already emptied by the caller) included, except the
 * runners of `elsewhere`, which catch up on their own connections at the same time; then each
 * follows on its own. Should a replay fail, every runner's subscription still starts from its
 * checkpoint (retrying as usual) once every replay has ended, and the first error is thrown. The
 * shared pages are the smallest batch any of them was configured with: none writes a larger
 * batch than it was given.
 */
export async function rebuildTogether(
  store: ReadModelStore,
  runners: ProjectionRunner[],
  others: RebuiltFollower[] = [],
  elsewhere: CatchUpElsewhere[] = [],
): Promise<void> {
  const followers = [...runners, ...others];
  const pageSize = Math.min(...followers.map((follower) => follower.batchSize));
  await Promise.all(followers.map((follower) => follower.stop()));
  await store.clear();
  for (const runner of runners) runner.forgetCheckpoint();
  const away = new Set<CatchUpFollower>(elsewhere.map((catchUp) => catchUp.runner));
  const here = followers.filter((follower) => !away.has(follower));
  try {
    // Settled, not raced: no runner may start following while another replay still writes.
    const replays = await Promise.allSettled([
      runners.length > 0 && here.length > 0 ? catchUpTogether(runners[0].events, here, pageSize) : Promise.resolve(),
      ...elsewhere.map((catchUp) => catchUp.run(pageSize)),
    ]);
    const failed = replays.find((replay) => replay.status === 'rejected');
    if (failed) throw failed.reason;
  } finally {
    await Promise.all(followers.map((follower) => follower.start()));
  }
}
