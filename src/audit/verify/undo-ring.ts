import { comparePositions, type GlobalPosition } from '../../infrastructure/event-store/event-store.port';
import type { StreamHead } from './merkle-heads';

/** One applied event: where it was and what its stream's head was before it. */
export interface HeadChange {
  position: GlobalPosition;
  streamId: string;
  previous: StreamHead | undefined;
}

/**
 * The last changes of the heads, so that a checkpoint's root can be recomputed as of its
 * `through`, which lies a few events before the checkpoint itself. Bounded: a checkpoint further
 * back than `capacity` events cannot be checked (and is counted as such, never as tampering).
 */
export class UndoRing {
  private items: HeadChange[] = [];
  private start = 0;
  /** Whether changes were dropped for room (then an old `through` may be out of reach). */
  private dropped: GlobalPosition | null = null;

  constructor(private readonly capacity = 100_000) {}

  push(change: HeadChange): void {
    this.items.push(change);
    if (this.items.length - this.start > this.capacity) this.dropped = this.items[this.start++].position;
    if (this.start > this.capacity) this.compact();
  }

  /**
   * The heads before every change after `through` (per stream, the earliest change wins) and
   * how many events came after it; null when the changes reaching back to `through` were dropped.
   */
  since(through: GlobalPosition): { earlier: Map<string, StreamHead | undefined>; after: number } | null {
    if (this.dropped && comparePositions(this.dropped, through) > 0) return null;
    const earlier = new Map<string, StreamHead | undefined>();
    let after = 0;
    for (let i = this.items.length - 1; i >= this.start; i -= 1) {
      const change = this.items[i];
      if (comparePositions(change.position, through) <= 0) break;
      earlier.set(change.streamId, change.previous);
      after += 1;
    }
    return { earlier, after };
  }

  /** Forgets the changes up to `through`: checkpoints come in `through` order. */
  dropThrough(through: GlobalPosition): void {
    while (this.start < this.items.length && comparePositions(this.items[this.start].position, through) <= 0)
      this.dropped = this.items[this.start++].position;
    if (this.start > 1024 && this.start * 2 > this.items.length) this.compact();
  }

  private compact(): void {
    this.items = this.items.slice(this.start);
    this.start = 0;
  }
}
