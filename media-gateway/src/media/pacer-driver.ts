import { MonotonicClock } from './clock';
import { FramePacer } from './frame-pacer';
import { FrameSchedule } from './frame-schedule';

/**
 * One drift-corrected timer for every call's pacer: all pacers share one 20 ms grid, so the process
 * wakes 50 times a second however many calls it carries, instead of 50 times a second per call.
 * The timer runs only while at least one pacer is attached.
 */
export class PacerDriver {
  private readonly schedule: FrameSchedule;
  private readonly pacers = new Set<FramePacer>();
  private timer: unknown = null;
  private nextSlot = 0;
  /** Wake-ups that came more than one frame after their slot (an event loop too busy). */
  lateWakeups = 0;

  constructor(
    private readonly clock: MonotonicClock,
    private readonly frameMs = 20,
    private readonly timers: { setTimeout(fn: () => void, ms: number): unknown; clearTimeout(h: unknown): void } = {
      setTimeout: (fn, ms) => setTimeout(fn, ms),
      clearTimeout: (h) => clearTimeout(h as NodeJS.Timeout),
    },
  ) {
    this.schedule = new FrameSchedule(clock.nowMs(), frameMs);
  }

  get size(): number {
    return this.pacers.size;
  }

  /** Attaches a pacer to the grid; its first frame leaves in the slot due now. */
  add(pacer: FramePacer): void {
    pacer.attach(this.schedule.startMs);
    this.pacers.add(pacer);
    pacer.tick();
    if (this.timer === null) this.arm();
  }

  /** Detaches (and stops) a pacer; the timer stops with the last one. */
  remove(pacer: FramePacer): void {
    pacer.stop();
    this.pacers.delete(pacer);
    if (this.pacers.size === 0 && this.timer !== null) {
      this.timers.clearTimeout(this.timer);
      this.timer = null;
    }
  }

  private arm(): void {
    const now = this.clock.nowMs();
    this.nextSlot = Math.max(this.nextSlot, this.schedule.dueSlot(now) + 1);
    this.timer = this.timers.setTimeout(() => this.wake(), this.schedule.delayUntil(this.nextSlot, now));
  }

  private wake(): void {
    const now = this.clock.nowMs();
    if (this.schedule.lateness(this.nextSlot, now) > this.frameMs) this.lateWakeups++;
    for (const pacer of this.pacers) pacer.tick();
    if (this.pacers.size > 0) this.arm();
    else this.timer = null;
  }
}
