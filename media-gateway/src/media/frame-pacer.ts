import { MonotonicClock } from './clock';
import { FrameSchedule } from './frame-schedule';
import { MULAW_SILENCE } from './g711';

export interface PacedFrameInfo {
  /** Slot number since start(). */
  slot: number;
  dueMs: number;
  sentMs: number;
  /** sentMs − dueMs (≥ 0). */
  latenessMs: number;
  /** Time the gateway held the frame beyond its pacing: sentMs − max(pushed, due). */
  heldMs: number;
}

export interface FramePacerOptions {
  clock: MonotonicClock;
  /** Called once per due slot with a queued frame: a view of the pacer's ring, valid during the call only. */
  onFrame(frame: Uint8Array, info: PacedFrameInfo): void;
  /**
   * Called for a slot that sends nothing (advance the RTP timestamp: `RtpSender.skip`): `skipped` is
   * false when the queue was empty, true when the slot was given up after a stall with audio queued.
   */
  onIdle?(slot: number, skipped: boolean): void;
  /** A mark reached: played (every frame before it was sent) or cleared (flushed with `flush`). */
  onMark?(name: string, outcome: 'played' | 'cleared'): void;
  frameMs?: number;
  /** Bytes per frame; shorter frames are padded with `fillByte`, longer ones cut. Default 160 (20 ms G.711). */
  frameBytes?: number;
  fillByte?: number;
  /** Frames the queue holds before it drops (counted). Default 500 (10 s). */
  capacityFrames?: number;
  /** After a stall, at most this many overdue slots are sent at once; the rest are skipped as idle. Default 3. */
  maxCatchUpSlots?: number;
  timers?: { setTimeout(fn: () => void, ms: number): unknown; clearTimeout(handle: unknown): void };
}

export interface FramePacerStats {
  sent: number;
  /** Frames refused because the queue was full (an agent faster than real time). */
  dropped: number;
  /** Frames discarded by flush (the agent's `clear`). */
  flushed: number;
  /** Frames sent more than one frame after their slot. */
  late: number;
  maxLatenessMs: number;
  /** Overdue slots skipped after a stall. */
  skippedSlots: number;
  queued: number;
}

/**
 * Paces frames out on a drift-corrected schedule (FrameSchedule) from a bounded ring buffer that is
 * allocated once: pushing copies into it, nothing is allocated per frame. Marks travel in the queue
 * between frames, as in the Media Streams protocol.
 */
export class FramePacer {
  private readonly frameBytes: number;
  private readonly capacity: number;
  private readonly ring: Uint8Array;
  private readonly pushedAt: Float64Array;
  /** One view per ring slot, made once, so sending a frame creates no view. */
  private readonly views: Uint8Array[];
  private head = 0;
  private size = 0;
  /** Total frames ever enqueued and ever dequeued (sent or flushed): marks wait for a dequeued count. */
  private enqueuedTotal = 0;
  private dequeuedTotal = 0;
  private marks: Array<{ name: string; after: number }> = [];
  private schedule: FrameSchedule | null = null;
  private nextSlot = 0;
  private timer: unknown = null;
  private readonly stat: Omit<FramePacerStats, 'queued'> = {
    sent: 0,
    dropped: 0,
    flushed: 0,
    late: 0,
    maxLatenessMs: 0,
    skippedSlots: 0,
  };

  constructor(private readonly options: FramePacerOptions) {
    this.frameBytes = options.frameBytes ?? 160;
    this.capacity = options.capacityFrames ?? 500;
    this.ring = new Uint8Array(this.frameBytes * this.capacity);
    this.pushedAt = new Float64Array(this.capacity);
    this.views = Array.from({ length: this.capacity }, (_, i) =>
      this.ring.subarray(i * this.frameBytes, (i + 1) * this.frameBytes),
    );
  }

  get stats(): FramePacerStats {
    return { ...this.stat, queued: this.size };
  }

  get queued(): number {
    return this.size;
  }

  /** Queues one frame; false (and counted) when the queue is full. */
  push(frame: Uint8Array, pushedAtMs: number = this.options.clock.nowMs()): boolean {
    if (this.size === this.capacity) {
      this.stat.dropped++;
      return false;
    }
    const index = (this.head + this.size) % this.capacity;
    const offset = index * this.frameBytes;
    const n = Math.min(frame.length, this.frameBytes);
    this.ring.set(n === frame.length ? frame : frame.subarray(0, n), offset);
    if (n < this.frameBytes)
      this.ring.fill(this.options.fillByte ?? MULAW_SILENCE, offset + n, offset + this.frameBytes);
    this.pushedAt[index] = pushedAtMs;
    this.size++;
    this.enqueuedTotal++;
    return true;
  }

  /** Queues a mark behind the frames queued so far; reported when they have all been sent. */
  pushMark(name: string): void {
    if (this.dequeuedTotal >= this.enqueuedTotal) this.options.onMark?.(name, 'played');
    else this.marks.push({ name, after: this.enqueuedTotal });
  }

  /** Drops everything queued (the agent's `clear`); pending marks are reported as cleared. Returns frames dropped. */
  flush(): number {
    const n = this.size;
    this.stat.flushed += n;
    this.dequeuedTotal += n;
    this.head = 0;
    this.size = 0;
    const marks = this.marks;
    this.marks = [];
    for (const m of marks) this.options.onMark?.(m.name, 'cleared');
    return n;
  }

  /** Starts the schedule at the clock's now (slot 0 is due at once) and drives itself with timers. */
  start(): void {
    if (this.schedule) return;
    this.schedule = new FrameSchedule(this.options.clock.nowMs(), this.options.frameMs ?? 20);
    this.nextSlot = 0;
    this.run();
  }

  /**
   * Starts on a shared grid whose slot 0 was due at `gridStartMs`, without timers of its own: a
   * PacerDriver ticks it with every other pacer of the process. The first slot is the one due now.
   */
  attach(gridStartMs: number): void {
    if (this.schedule) return;
    this.schedule = new FrameSchedule(gridStartMs, this.options.frameMs ?? 20);
    this.nextSlot = Math.max(0, this.schedule.dueSlot(this.options.clock.nowMs()));
  }

  stop(): void {
    if (this.timer !== null) (this.options.timers ?? globalThis).clearTimeout(this.timer as never);
    this.timer = null;
    this.schedule = null;
  }

  /** Sends every slot due now. start() calls it from its timers; a shared driver may call it instead. */
  tick(): void {
    const schedule = this.schedule;
    if (!schedule) return;
    const now = this.options.clock.nowMs();
    const due = schedule.dueSlot(now);
    const maxCatchUp = this.options.maxCatchUpSlots ?? 3;
    if (due - this.nextSlot + 1 > maxCatchUp) {
      const skip = due - this.nextSlot + 1 - maxCatchUp;
      for (let i = 0; i < skip; i++) this.options.onIdle?.(this.nextSlot + i, this.size > 0);
      this.stat.skippedSlots += skip;
      this.nextSlot += skip;
    }
    for (; this.nextSlot <= due; this.nextSlot++) this.sendSlot(schedule, this.nextSlot, now);
  }

  private run(): void {
    const schedule = this.schedule;
    if (!schedule) return;
    this.tick();
    const timers = this.options.timers ?? globalThis;
    this.timer = timers.setTimeout(() => this.run(), schedule.delayUntil(this.nextSlot, this.options.clock.nowMs()));
  }

  private sendSlot(schedule: FrameSchedule, slot: number, now: number): void {
    if (this.size === 0) {
      this.options.onIdle?.(slot, false);
      return;
    }
    const index = this.head;
    const dueMs = schedule.slotTime(slot);
    const latenessMs = Math.max(0, now - dueMs);
    const heldMs = Math.max(0, now - Math.max(dueMs, this.pushedAt[index]));
    this.head = (this.head + 1) % this.capacity;
    this.size--;
    this.dequeuedTotal++;
    this.stat.sent++;
    if (latenessMs > schedule.frameMs) this.stat.late++;
    if (latenessMs > this.stat.maxLatenessMs) this.stat.maxLatenessMs = latenessMs;
    this.options.onFrame(this.views[index], {
      slot,
      dueMs,
      sentMs: now,
      latenessMs,
      heldMs,
    });
    while (this.marks.length > 0 && this.marks[0].after <= this.dequeuedTotal) {
      const mark = this.marks.shift();
      if (mark) this.options.onMark?.(mark.name, 'played');
    }
  }
}
