/**
 * A drift-corrected 20 ms schedule: slot n is due at start + n · frameMs on a monotonic clock, so a
 * late timer never shifts the slots after it (setInterval would accumulate every delay).
 */
export class FrameSchedule {
  constructor(
    readonly startMs: number,
    readonly frameMs = 20,
  ) {}

  /** When slot `n` (0-based) is due. */
  slotTime(n: number): number {
    return this.startMs + n * this.frameMs;
  }

  /** The last slot that is due at `nowMs` (−1 before the start). */
  dueSlot(nowMs: number): number {
    return Math.floor((nowMs - this.startMs) / this.frameMs);
  }

  /** Milliseconds from `nowMs` until slot `n` is due (0 if it is due already). */
  delayUntil(n: number, nowMs: number): number {
    return Math.max(0, this.slotTime(n) - nowMs);
  }

  /** How late a frame sent at `sentMs` for slot `n` is (0 if on time). */
  lateness(n: number, sentMs: number): number {
    return Math.max(0, sentMs - this.slotTime(n));
  }
}
