import {
  comparePositions,
  decodePosition,
  encodePosition,
  EventStore,
  EventSubscription,
  GlobalPosition,
  StoredEvent,
} from '../infrastructure/event-store/event-store.port';
import { ReadModelStore, WriteOp } from '../infrastructure/read-model/read-model-store.port';
import { BatchView, compactOps } from './batch-view';
import { catchUpTogether, CatchUpFollower } from './catch-up';
import { PositionWaiters } from './position-waiters';
import { Projection } from './projection';

export interface ProjectionStatus {
  name: string;
  checkpoint: string | null;
  /** Age of the oldest event not yet applied; 0 when caught up with the store. */
  lagMs: number;
  caughtUp: boolean;
}

/**
 * The default largest batch (PROJECTION_BATCH_SIZE's default, app-config.ts): what a catch-up (a
 * rebuild, a restart behind) reads and writes at once, for runners built without the settings
 * (the rebuild benchmark, tests). Live, batches are whatever arrived since the last one. Larger
 * pages spend less per event on round trips (one MGET, one write script per batch) but hold Redis
 * longer per script and more events in memory.
 */
export const CATCH_UP_BATCH_SIZE = 2000;

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
export class ProjectionRunner implements CatchUpFollower {
  private subscription: EventSubscription | null = null;
  private checkpoint: GlobalPosition | null = null;
  private readonly waiters = new PositionWaiters();
  readonly batchSize: number;

  constructor(
    readonly name: string,
    private readonly projections: Projection[],
    private readonly store: ReadModelStore,
    readonly events: EventStore,
    private readonly options: ProjectionRunnerOptions = {},
  ) {
    this.batchSize = options.batchSize ?? CATCH_UP_BATCH_SIZE;
  }

  private get checkpointKey(): string {
    return `checkpoint:${this.name}`;
  }

  /** Loads the checkpoint from the store: where this runner's events resume. */
  async resume(): Promise<GlobalPosition | null> {
    const saved = await this.store.get(this.checkpointKey);
    this.checkpoint = saved ? decodePosition(saved) : null;
    this.options.onResume?.(this.checkpoint);
    return this.checkpoint;
  }

  async start(): Promise<void> {
    await this.resume();
    this.subscription = this.events.subscribe({ after: this.checkpoint, batchSize: this.batchSize }, (batch) =>
      this.applyBatch(batch),
    );
  }

  async stop(): Promise<void> {
    await this.subscription?.stop();
    this.subscription = null;
    this.waiters.cancelAll();
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

  /** Resolves true once every event up to `position` is applied, false after the timeout. */
  waitFor(position: GlobalPosition, timeoutMs: number): Promise<boolean> {
    return this.waiters.wait((p) => this.reached(p), position, timeoutMs);
  }

  /** Compares the checkpoint with the store: one small read, for /readyz and logs. */
  async status(now: Date = new Date()): Promise<ProjectionStatus> {
    // Not running here (another instance leads): the shared checkpoint is the one that counts.
    const saved = this.subscription ? null : await this.store.get(this.checkpointKey);
    const checkpoint = saved ? decodePosition(saved) : this.checkpoint;
    const [next] = await this.events.readAll({ after: checkpoint, maxCount: 1 });
    const lagMs = next ? Math.max(0, now.getTime() - next.recordedAt.getTime()) : 0;
    return { name: this.name, checkpoint: checkpoint ? encodePosition(checkpoint) : null, lagMs, caughtUp: !next };
  }

  private reached(position: GlobalPosition): boolean {
    return this.checkpoint !== null && comparePositions(this.checkpoint, position) >= 0;
  }

  /** Applies a batch and its checkpoint atomically: from the subscription, or a shared catch-up while stopped. */
  async applyBatch(batch: StoredEvent[]): Promise<void> {
    if (batch.length === 0) return;
    const last = batch[batch.length - 1];
    const ops = await this.writesOf(batch);
    const checkpoint = { key: this.checkpointKey, value: encodePosition(last.position) };
    if (this.options.writer) await this.options.writer(ops, checkpoint, batch.length);
    else await this.store.write([...ops, { op: 'set', ...checkpoint }]);
    this.checkpoint = last.position;
    this.waiters.advance(last.position);
    this.options.onCheckpoint?.(last.position);
  }

  private async writesOf(batch: StoredEvent[]): Promise<WriteOp[]> {
    const view = new BatchView(this.store);
    await Promise.all(this.projections.map((projection) => projection.prefetch?.(batch, view)));
    const ops: WriteOp[] = [];
    for (const event of batch) {
      for (const projection of this.projections) {
        const writes = await projection.apply(event, view);
        for (const write of writes) {
          view.record(write);
          ops.push(write);
        }
      }
    }
    return compactOps(ops);
  }
}

/** A follower rebuilt with the read-model runners (the trunk dimension, in the rebuild benchmark). */
export interface RebuiltFollower extends CatchUpFollower {
  readonly batchSize: number;
  start(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * Rebuilds every runner that writes into one store: all stop, the store is cleared once, all
 * replay from the start. Clearing under a runner that keeps going would leave its read models
 * empty behind a checkpoint that says they are complete. The replay reads the history once for
 * all of them (catch-up.ts), `others` (already emptied by the caller) included; then each
 * follows on its own. Should the shared replay fail, each runner's subscription still resumes
 * from its checkpoint (retrying as usual) and the error is thrown. The shared pages are the
 * smallest batch any of them was configured with: none writes a larger batch than it was given.
 */
export async function rebuildTogether(
  store: ReadModelStore,
  runners: ProjectionRunner[],
  others: RebuiltFollower[] = [],
): Promise<void> {
  const followers = [...runners, ...others];
  const pageSize = Math.min(...followers.map((follower) => follower.batchSize));
  await Promise.all(followers.map((follower) => follower.stop()));
  await store.clear();
  for (const runner of runners) runner.forgetCheckpoint();
  try {
    if (runners.length > 0) await catchUpTogether(runners[0].events, followers, pageSize);
  } finally {
    await Promise.all(followers.map((follower) => follower.start()));
  }
}
