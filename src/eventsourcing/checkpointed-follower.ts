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
  private readonly typeSet: ReadonlySet<string> | null;
  readonly batchSize: number;

  /** `types`: the event types it applies (null: all), read alone in a catch-up (catch-up.ts). */
  constructor(
    readonly name: string,
    readonly events: EventStore,
    batchSize?: number,
    readonly types: readonly string[] | null = null,
  ) {
    this.batchSize = batchSize ?? CATCH_UP_BATCH_SIZE;
    this.typeSet = types && new Set(types);
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

  /**
   * Applies a batch and its checkpoint: from the subscription (every type, up to its last event),
   * or a shared catch-up while stopped (its types, up to `through`). Either way only the events
   * of its types are committed, and the checkpoint moves past the others (whoever waits for one
   * of them is released), so a rebuild and the live run apply (and count) the same events.
   */
  async applyBatch(batch: StoredEvent[], through?: GlobalPosition): Promise<void> {
    const last = through ?? (batch.length > 0 ? batch[batch.length - 1].position : null);
    if (last === null || (batch.length === 0 && this.reached(last))) return;
    const types = this.typeSet;
    await this.commit(types ? batch.filter((event) => types.has(event.type)) : batch, last);
    this.checkpoint = last;
    this.waiters.advance(last);
    this.committed(last);
  }

  private reached(position: GlobalPosition): boolean {
    return this.checkpoint !== null && comparePositions(this.checkpoint, position) >= 0;
  }
}
