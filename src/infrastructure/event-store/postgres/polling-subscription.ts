import type { BatchHandler, EventSubscription, GlobalPosition, StoredEvent } from '../event-store.port';
import type { EventStoreLogger } from '../event-store.logger';
import { deliverWithRetry, retryDelay } from '../batch-delivery';

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
    while (!this.stopped) {
      const seen = this.signals;
      const batch = await this.read(after);
      if (batch === undefined) return;
      if (batch.length > 0) {
        if (!(await this.deliver(batch))) return;
        after = batch[batch.length - 1].position;
      } else if (seen === this.signals) {
        await this.sleep(this.options.idlePollMs, true);
      }
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
