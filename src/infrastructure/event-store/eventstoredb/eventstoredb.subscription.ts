import { type AllStreamSubscription, type EventStoreDBClient, excludeSystemEvents, START } from '@eventstore/db-client';
import type { BatchHandler, EventSubscription, GlobalPosition, StoredEvent } from '../event-store.port';
import { deliverWithRetry, retryDelay } from '../batch-delivery';
import type { EventStoreLogger } from '../event-store.logger';
import { isSystemEvent, toClientPosition, toStoredEvent } from './eventstoredb.mapping';

/**
 * A catch-up subscription to $all without system events. Events are handed over one per batch:
 * `for await` pulls the next one only after the handler settled, so calls never overlap. A
 * dropped subscription is reopened after the last delivered position (subscriptions start
 * strictly after `fromPosition`).
 */
export class EventStoreDbSubscription implements EventSubscription {
  private stopped = false;
  private current: AllStreamSubscription | undefined;
  private cancelPause: (() => void) | undefined;
  private readonly done: Promise<void>;

  constructor(
    private readonly client: EventStoreDBClient,
    after: GlobalPosition | null,
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
      const subscription = this.client.subscribeToAll({
        fromPosition: checkpoint ? toClientPosition(checkpoint) : START,
        filter: excludeSystemEvents(),
      });
      this.current = subscription;
      try {
        for await (const resolved of subscription) {
          const event = resolved.event;
          if (!event || isSystemEvent(event)) continue;
          const stored = toStoredEvent(event);
          if (!(await this.deliver(stored))) break;
          checkpoint = stored.position;
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

  private deliver(event: StoredEvent): Promise<boolean> {
    const control = { isStopped: () => this.stopped, pause: (ms: number) => this.pause(ms) };
    return deliverWithRetry(this.handler, [event], control, this.logger);
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
