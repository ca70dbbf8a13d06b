import type { BatchHandler, EventSubscription, GlobalPosition, StoredEvent } from '../event-store.port';
import type { EventStoreLogger } from '../event-store.logger';
import { deliverWithRetry, retryDelay } from '../batch-delivery';

/** First look again after 5 ms, doubling up to a second (never longer than the idle poll). */
export function withheldDelay(round: number, idlePollMs: number): number {
  return Math.min(idlePollMs, 1000, 5 * 2 ** Math.min(round, 8));
}

/** In-process "something was appended" signal; listeners must be cheap and never throw. */
export class ChangeSignal {
  private readonly listeners = new Set<() => void>();

  on(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  fire(): void {
    for (const listener of this.listeners) listener();
  }
}

export interface PollingSubscriptionOptions {
  after: GlobalPosition | null;
  batchSize: number;
  /** Fallback when no signal arrives (another process appended and its notification was lost). */
  idlePollMs: number;
  readAll: (after: GlobalPosition | null, maxCount: number) => Promise<StoredEvent[]>;
  /**
   * Whether events past `after` exist that readAll did not return yet (committed, but held back
   * behind an older transaction still in flight): then the loop looks again soon, since no
   * further signal will come for them.
   */
  withheldAfter?: (after: GlobalPosition | null) => Promise<boolean>;
  changes: ChangeSignal;
  handler: BatchHandler;
  logger: EventStoreLogger;
}

/**
 * Follows readAll from a checkpoint. One loop per subscription, so the handler is never called
 * concurrently; a failed batch is retried as is until it succeeds or the subscription stops.
 */
export class PollingSubscription implements EventSubscription {
  private stopped = false;
  /** Bumped by every signal, so one arriving during a read is not lost. */
  private signals = 0;
  private interrupt: (() => void) | undefined;
  private readonly done: Promise<void>;
  private readonly unlisten: () => void;

  constructor(private readonly options: PollingSubscriptionOptions) {
    this.unlisten = options.changes.on(() => this.signal());
    this.done = this.run().finally(() => this.unlisten());
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.interrupt?.();
    await this.done;
  }

  private signal(): void {
    this.signals += 1;
    this.interrupt?.();
  }

  private async run(): Promise<void> {
    let after = this.options.after;
    let withheldRounds = 0;
    while (!this.stopped) {
      const seen = this.signals;
      const batch = await this.read(after);
      if (batch === undefined) return;
      if (batch.length > 0) {
        if (!(await this.deliver(batch))) return;
        after = batch[batch.length - 1].position;
        withheldRounds = 0;
      } else if (seen === this.signals) {
        if (await this.withheld(after)) {
          // The append that woke us is committed but not readable yet: look again soon.
          await this.sleep(withheldDelay(withheldRounds++, this.options.idlePollMs), true);
        } else {
          withheldRounds = 0;
          await this.sleep(this.options.idlePollMs, true);
        }
      }
    }
  }

  /** False when the store cannot tell (or the check fails: the idle poll covers it). */
  private async withheld(after: GlobalPosition | null): Promise<boolean> {
    if (!this.options.withheldAfter) return false;
    try {
      return await this.options.withheldAfter(after);
    } catch {
      return false;
    }
  }

  /** undefined once stopped; read errors (store unreachable) are retried with back-off. */
  private async read(after: GlobalPosition | null): Promise<StoredEvent[] | undefined> {
    for (let attempt = 0; !this.stopped; attempt += 1) {
      try {
        return await this.options.readAll(after, this.options.batchSize);
      } catch (error) {
        this.options.logger.warn({ err: error, attempt }, 'event subscription: read failed, retrying');
        await this.sleep(retryDelay(attempt), false);
      }
    }
    return undefined;
  }

  private deliver(batch: StoredEvent[]): Promise<boolean> {
    const control = { isStopped: () => this.stopped, pause: (ms: number) => this.sleep(ms, false) };
    return deliverWithRetry(this.options.handler, batch, control, this.options.logger);
  }

  /** Ends early on stop(), and on a change signal only when `wakeOnSignal`. */
  private sleep(ms: number, wakeOnSignal: boolean): Promise<void> {
    if (this.stopped) return Promise.resolve();
    return new Promise((resolve) => {
      const finish = (): void => {
        clearTimeout(timer);
        this.interrupt = undefined;
        resolve();
      };
      const timer = setTimeout(finish, ms);
      this.interrupt = wakeOnSignal ? finish : () => (this.stopped ? finish() : undefined);
    });
  }
}
