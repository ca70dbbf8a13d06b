import { comparePositions, decodePosition, GlobalPosition } from '../infrastructure/event-store/event-store.port';
import { PositionWaiters } from './position-waiters';

/** What the shared checkpoint is built on: its Redis key and the channel announcing it. */
export interface CheckpointSource {
  /** The checkpoint as stored (null: nothing applied yet). */
  read(): Promise<string | null>;
  /** Calls `onChange` with every new checkpoint; `onResync` when announcements may have been missed. */
  subscribe(onChange: (encoded: string) => void, onResync: () => void): Promise<void>;
}

const POLL_MS = 100;

/**
 * Read-your-writes on every instance: a write waits until the checkpoint in Redis (written by
 * whichever instance leads the projection, in the same script as the read-model writes) reaches
 * its position. Announcements over pub/sub release waiters at once; a slow poll while someone
 * waits covers announcements lost to a reconnect. The leader also tells its own instance directly
 * (observe), after its write returned, so a single instance never waits for a round trip.
 */
export class SharedCheckpoint {
  private known: GlobalPosition | null = null;
  private readonly waiters = new PositionWaiters();
  private poller: NodeJS.Timeout | null = null;
  private pending = 0;
  private stopped = false;
  private confirming = false;

  /** `onBehind`: told when a checkpoint older than one already seen appears (the store is being replayed). */
  constructor(
    private readonly source: CheckpointSource,
    private readonly onBehind?: () => void,
  ) {}

  async start(): Promise<void> {
    await this.source.subscribe(
      (encoded) => this.observeEncoded(encoded),
      () => void this.refresh(),
    );
    await this.refresh();
  }

  stop(): void {
    this.stopped = true;
    if (this.poller) clearInterval(this.poller);
    this.poller = null;
    this.waiters.cancelAll();
  }

  get checkpoint(): GlobalPosition | null {
    return this.known;
  }

  /**
   * A checkpoint known to be in Redis already (the leader's own write returned, an announcement,
   * a read). One older than the newest seen is usually a late announcement (pub/sub and the
   * leader's direct report race each other), so it only counts as the store going back once a
   * read of the stored checkpoint confirms it.
   */
  observe(position: GlobalPosition): void {
    if (this.known && comparePositions(this.known, position) >= 0) {
      if (comparePositions(this.known, position) > 0) void this.confirmBehind();
      return;
    }
    this.known = position;
    this.waiters.advance(position);
  }

  async waitFor(position: GlobalPosition, timeoutMs: number): Promise<boolean> {
    if (this.reached(position)) return true;
    this.pending += 1;
    this.ensurePolling();
    try {
      return await this.waiters.wait((p) => this.reached(p), position, timeoutMs);
    } finally {
      this.pending -= 1;
    }
  }

  async refresh(): Promise<void> {
    const stored = await this.source.read().catch(() => null);
    if (stored) this.observeEncoded(stored);
  }

  /**
   * Tells onBehind when the stored checkpoint is older than one seen before the read was asked
   * (or gone): a replay, a flush. Not one seen while the read was on its way: the leader's next
   * batch, announced after Redis answered, would make an answer that was current look behind (a
   * trunk's deletion is followed at once by the appends freeing its two names).
   */
  private async confirmBehind(): Promise<void> {
    if (!this.onBehind || this.confirming || this.stopped) return;
    const seen = this.known;
    this.confirming = true;
    try {
      const stored = await this.source.read();
      if (seen && (stored === null || comparePositions(decodePosition(stored), seen) < 0)) this.onBehind();
    } catch {
      // Unreadable store or stray value: no evidence of a replay; the next announcement asks again.
    } finally {
      this.confirming = false;
    }
  }

  private observeEncoded(encoded: string): void {
    try {
      this.observe(decodePosition(encoded));
    } catch {
      // Not a position: ignore rather than let a stray message stop the subscriber.
    }
  }

  private reached(position: GlobalPosition): boolean {
    return this.known !== null && comparePositions(this.known, position) >= 0;
  }

  private ensurePolling(): void {
    if (this.poller || this.stopped) return;
    this.poller = setInterval(() => {
      if (this.pending === 0) {
        clearInterval(this.poller!);
        this.poller = null;
        return;
      }
      void this.refresh();
    }, POLL_MS);
    this.poller.unref();
  }
}
