import {
  type AllStreamResolvedEvent,
  type AllStreamSubscription,
  type EventStoreDBClient,
  excludeSystemEvents,
  START,
} from '@eventstore/db-client';
import type { BatchHandler, EventSubscription, GlobalPosition, StoredEvent } from '../event-store.port';
import { deliverWithRetry, retryDelay } from '../batch-delivery';
import type { EventStoreLogger } from '../event-store.logger';
import { isSystemEvent, toClientPosition, toStoredEvent } from './eventstoredb.mapping';
import { bufferedPages } from './buffered-pages';

/** What a subscription item becomes: one of our events, or nothing (system events, unresolved links). */
export function acceptResolved(resolved: AllStreamResolvedEvent): StoredEvent | undefined {
  const event = resolved.event;
  return event && !isSystemEvent(event) ? toStoredEvent(event) : undefined;
}

/**
 * A catch-up subscription to $all without system events, handed over in pages of up to
 * `batchSize`: the client buffers up to that many events while the handler works (its
 * highWaterMark), and the next page is everything buffered by then (buffered-pages.ts). The
 * next page is taken only after the handler settled, so calls never overlap and stay in $all's
 * order; a failed page is retried as is. A dropped subscription is reopened after the last
 * delivered position (subscriptions start strictly after `fromPosition`).
 */
export class EventStoreDbSubscription implements EventSubscription {
  private stopped = false;
  private current: AllStreamSubscription | undefined;
  private cancelPause: (() => void) | undefined;
  private readonly done: Promise<void>;

  constructor(
    private readonly client: EventStoreDBClient,
    after: GlobalPosition | null,
    private readonly batchSize: number,
    private readonly handler: BatchHandler,
    private readonly logger: EventStoreLogger,
  ) {
    this.done = this.run(after);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.cancelPause?.();
    await this.current?.unsubscribe().catch(() => undefined);
    await this.done;
  }

  private async run(after: GlobalPosition | null): Promise<void> {
    let checkpoint = after;
    for (let attempt = 0; !this.stopped; attempt += 1) {
      const subscription = this.client.subscribeToAll(
        { fromPosition: checkpoint ? toClientPosition(checkpoint) : START, filter: excludeSystemEvents() },
        { highWaterMark: this.batchSize },
      );
      this.current = subscription;
      try {
        for await (const page of bufferedPages(subscription, this.batchSize, acceptResolved)) {
          if (!(await this.deliver(page))) break;
          checkpoint = page[page.length - 1].position;
          attempt = 0;
        }
      } catch (error) {
        if (!this.stopped)
          this.logger.warn({ err: error, attempt }, 'event subscription: $all subscription dropped, reopening');
      }
      await subscription.unsubscribe().catch(() => undefined);
      if (!this.stopped) await this.pause(retryDelay(attempt));
    }
  }

  private deliver(page: StoredEvent[]): Promise<boolean> {
    const control = { isStopped: () => this.stopped, pause: (ms: number) => this.pause(ms) };
    return deliverWithRetry(this.handler, page, control, this.logger);
  }

  private pause(ms: number): Promise<void> {
    if (this.stopped) return Promise.resolve();
    return new Promise((resolve) => {
      const finish = (): void => {
        clearTimeout(timer);
        this.cancelPause = undefined;
        resolve();
      };
      const timer = setTimeout(finish, ms);
      this.cancelPause = finish;
    });
  }
}
