import type { Clock } from '../../src/shared/clock';

/**
 * The system clock, moved forward on demand: a test that needs an instant to have passed (a key's
 * expiry) moves the app's clock past it instead of waiting, so it neither waits nor races a busy
 * machine. Only ever forward, as real time goes.
 */
export class ShiftableClock implements Clock {
  private offsetMs = 0;

  now(): Date {
    return new Date(Date.now() + this.offsetMs);
  }

  advance(ms: number): void {
    if (!(ms >= 0)) throw new Error(`a clock only moves forward (asked to move ${ms} ms)`);
    this.offsetMs += ms;
  }
}
