import {
  comparePositions,
  EventStore,
  EventSubscription,
  GlobalPosition,
  StoredEvent,
} from '../infrastructure/event-store/event-store.port';
import { CatchUpFollower } from './catch-up';
import { PositionWaiters } from './position-waiters';

/**
 * The default largest batch (PROJECTION_BATCH_SIZE's default, app-config.ts): what a catch-up (a
 * rebuild, a restart behind) reads and writes at once, for followers built without the settings
 * (the rebuild benchmark, tests). Live, batches are whatever arrived since the last one. Larger
 * pages spend less per event on round trips (one MGET, one write script per batch) but hold Redis
 * longer per script and more events in memory.
 */
export const CATCH_UP_BATCH_SIZE = 2000;

/**
 * Follows the event store from a checkpoint kept in its own target store: resumes from it,
 * subscribes after it, applies each batch with its checkpoint (`commit`), and releases whoever
 * waits for a position once it is applied. The read-model runner (Redis or memory) and the
 * trunk dimension (ClickHouse) are this with their own `loadCheckpoint` and `commit`.
 */
export abstract class CheckpointedFollower implements CatchUpFollower {
  private subscription: EventSubscription | null = null;
  protected checkpoint: GlobalPosition | null = null;
  private readonly waiters = new PositionWaiters();
  readonly batchSize: number;

  constructor(
    readonly name: string,
    readonly events: EventStore,
    batchSize?: number,
  ) {
    this.batchSize = batchSize ?? CATCH_UP_BATCH_SIZE;
  }

  /** Where this follower stands, as its own store says (null: nothing applied). */
  protected abstract loadCheckpoint(): Promise<GlobalPosition | null>;

  /** Writes a batch's effects and the checkpoint `last` after them, so a crash never loses or repeats one. */
  protected abstract commit(batch: StoredEvent[], last: GlobalPosition): Promise<void>;

  /** Told where it resumes, before anything is applied. */
  protected resumed(_checkpoint: GlobalPosition | null): void {}

  /** Told each checkpoint once it is written. */
  protected committed(_position: GlobalPosition): void {}

  /** True while this instance follows the store (not stopped, not led elsewhere). */
  protected get following(): boolean {
    return this.subscription !== null;
  }

  /** Loads the checkpoint: where this follower's events resume. */
  async resume(): Promise<GlobalPosition | null> {
    this.checkpoint = await this.loadCheckpoint();
    this.resumed(this.checkpoint);
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

  /** Resolves true once every event up to `position` is applied, false after the timeout. */
  waitFor(position: GlobalPosition, timeoutMs: number): Promise<boolean> {
    return this.waiters.wait((p) => this.reached(p), position, timeoutMs);
  }

  /** Applies a batch and its checkpoint: from the subscription, or a shared catch-up while stopped. */
  async applyBatch(batch: StoredEvent[]): Promise<void> {
    if (batch.length === 0) return;
    const last = batch[batch.length - 1].position;
    await this.commit(batch, last);
    this.checkpoint = last;
    this.waiters.advance(last);
    this.committed(last);
  }

  private reached(position: GlobalPosition): boolean {
    return this.checkpoint !== null && comparePositions(this.checkpoint, position) >= 0;
  }
}
