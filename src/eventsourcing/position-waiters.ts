import { comparePositions, GlobalPosition } from '../infrastructure/event-store/event-store.port';

interface Waiter {
  position: GlobalPosition;
  resolve: (reached: boolean) => void;
  timer: NodeJS.Timeout;
}

/** Callers waiting for a projection to reach a position (read-your-writes). */
export class PositionWaiters {
  private waiters: Waiter[] = [];

  wait(reached: (p: GlobalPosition) => boolean, position: GlobalPosition, timeoutMs: number): Promise<boolean> {
    if (reached(position)) return Promise.resolve(true);
    return new Promise((resolve) => {
      const waiter: Waiter = {
        position,
        resolve,
        timer: setTimeout(() => {
          this.waiters = this.waiters.filter((w) => w !== waiter);
          resolve(false);
        }, timeoutMs),
      };
      this.waiters.push(waiter);
    });
  }

  /** Releases everyone whose position is at or before `checkpoint`. */
  advance(checkpoint: GlobalPosition): void {
    const still: Waiter[] = [];
    for (const waiter of this.waiters) {
      if (comparePositions(checkpoint, waiter.position) >= 0) {
        clearTimeout(waiter.timer);
        waiter.resolve(true);
      } else {
        still.push(waiter);
      }
    }
    this.waiters = still;
  }

  /** Stopping: nobody will be released any more. */
  cancelAll(): void {
    for (const waiter of this.waiters.splice(0)) {
      clearTimeout(waiter.timer);
      waiter.resolve(false);
    }
  }
}
