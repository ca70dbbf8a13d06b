import type { BatchHandler, StoredEvent } from './event-store.port';
import type { EventStoreLogger } from './event-store.logger';

const RETRY_DELAYS_MS = [50, 100, 250, 500, 1000, 2000, 5000];

export const retryDelay = (attempt: number): number => RETRY_DELAYS_MS[Math.min(attempt, RETRY_DELAYS_MS.length - 1)];

export interface DeliveryControl {
  isStopped(): boolean;
  /** Waits the back-off; resolves early when the subscription stops. */
  pause(ms: number): Promise<void>;
}

/**
 * Hands one batch to the handler until it succeeds: a subscription never moves past a batch its
 * handler rejected. Returns false when the subscription stopped first.
 */
export async function deliverWithRetry(
  handler: BatchHandler,
  batch: StoredEvent[],
  control: DeliveryControl,
  logger: EventStoreLogger,
): Promise<boolean> {
  for (let attempt = 0; !control.isStopped(); attempt += 1) {
    try {
      await handler(batch);
      return true;
    } catch (error) {
      const { hi, lo } = batch[0].position;
      logger.warn(
        { err: error, attempt, from: `${hi}:${lo}`, size: batch.length },
        'event subscription: handler failed, retrying the same batch',
      );
      await control.pause(retryDelay(attempt));
    }
  }
  return false;
}
