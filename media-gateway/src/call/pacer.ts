import { performance } from 'node:perf_hooks';

export const FRAME_MS = 20;
/** 8 kHz, 20 ms: samples (and bytes of G.711) per frame. */
export const FRAME_SAMPLES = 160;

export interface PacerSink {
  /**
   * Sends one frame now. `skippedSlots`: 20 ms slots that passed with nothing to send since the
   * previous frame (the RTP timestamp keeps counting them, RFC 3550 §5.1; the first frame after a
   * pause starts a talkspurt, RFC 3551 §4.1). `heldMs`: how long it waited past its slot or its arrival.
   */
  send(frame: Buffer, skippedSlots: number, heldMs: number): void;
}

export interface PacerStats {
  sent: number;
  /** Frames dropped because the queue was full (an agent sending far faster than real time). */
  dropped: number;
  /** Frames thrown away by `clear()` (barge-in). */
  cleared: number;
  /** The worst lateness of a frame past its slot, ms. */
  maxLateMs: number;
}

/**
 * Outgoing audio on a drift-corrected 20 ms schedule: frame n's slot is `origin + n·20 ms` on the
 * monotonic clock, and each timer is set for the next slot from *now*, so timer lateness never
 * accumulates (setInterval's does). While the queue is empty the timer stops; the next frame
 * starts on the next slot of the same grid, and RTP timestamps keep counting slots (RFC 3550
 * §5.1: the timestamp advances with the sampling clock, also across silence).
 *
 * The queue is bounded (`maxFrames`): beyond it frames are dropped and counted, never buffered.
 */
export class Pacer {
  private readonly queue: { frame: Buffer; at: number }[] = [];
  private head = 0;
  private readonly origin = performance.now();
  private nextSlot = 0;
  private timer: NodeJS.Timeout | null = null;
  private paused = true;
  private stopped = false;
  readonly stats: PacerStats = { sent: 0, dropped: 0, cleared: 0, maxLateMs: 0 };

  private lastSentSlot = -1;

  constructor(
    private readonly sink: PacerSink,
    private readonly maxFrames = 3_000,
  ) {}

  /** Queues a 20 ms frame (copied by the caller or owned by the pacer from here). */
  push(frame: Buffer): void {
    if (this.stopped) return;
    if (this.queue.length - this.head >= this.maxFrames) {
      this.stats.dropped++;
      return;
    }
    this.queue.push({ frame, at: performance.now() });
    if (!this.timer) this.arm();
  }

  /** Frames waiting to be sent. */
  queued(): number {
    return this.queue.length - this.head;
  }

  /** Drops everything queued (the agent's `clear`); returns how many frames were dropped. */
  clear(): number {
    const dropped = this.queue.length - this.head;
    this.stats.cleared += dropped;
    this.queue.length = 0;
    this.head = 0;
    return dropped;
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.queue.length = 0;
    this.head = 0;
  }

  private arm(): void {
    const now = performance.now();
    const current = Math.floor((now - this.origin) / FRAME_MS);
    // After a pause, start on the next slot of the grid (never in the past).
    if (this.paused || this.nextSlot <= current - 1) this.nextSlot = Math.max(this.nextSlot, current + 1);
    const wait = this.origin + this.nextSlot * FRAME_MS - now;
    this.timer = setTimeout(() => this.tick(), Math.max(0, wait));
  }

  private tick(): void {
    this.timer = null;
    if (this.stopped) return;
    const now = performance.now();
    // Every slot whose time has come gets its frame (a late timer catches up), never more.
    while (this.head < this.queue.length && this.origin + this.nextSlot * FRAME_MS <= now + 0.5) {
      const { frame, at } = this.queue[this.head++];
      const slotAt = this.origin + this.nextSlot * FRAME_MS;
      const late = now - slotAt;
      if (late > this.stats.maxLateMs) this.stats.maxLateMs = late;
      const skipped = this.lastSentSlot < 0 ? 0 : this.nextSlot - this.lastSentSlot - 1;
      this.lastSentSlot = this.nextSlot;
      this.sink.send(frame, skipped, now - Math.max(slotAt, at));
      this.paused = false;
      this.stats.sent++;
      this.nextSlot++;
    }
    if (this.head > 256 && this.head * 2 > this.queue.length) {
      this.queue.splice(0, this.head);
      this.head = 0;
    }
    if (this.head < this.queue.length) this.arm();
    else {
      this.paused = true;
      this.queue.length = 0;
      this.head = 0;
    }
  }
}
