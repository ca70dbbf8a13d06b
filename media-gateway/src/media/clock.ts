import { performance } from 'node:perf_hooks';

/** A monotonic clock in milliseconds (fractional). Every duration is measured with one; never Date.now. */
export interface MonotonicClock {
  nowMs(): number;
}

export const monotonicClock: MonotonicClock = { nowMs: () => performance.now() };

/** A clock a test moves by hand. */
export class ManualClock implements MonotonicClock {
  constructor(private now = 0) {}
  nowMs(): number {
    return this.now;
  }
  advance(ms: number): void {
    this.now += ms;
  }
  set(ms: number): void {
    this.now = ms;
  }
}
