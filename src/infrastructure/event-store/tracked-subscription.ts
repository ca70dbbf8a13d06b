import type { EventSubscription } from './event-store.port';

/** A subscription the store remembers until it stops, so close() can stop whatever is still running. */
export function trackSubscription(
  running: Set<EventSubscription>,
  subscription: { stop(): Promise<void> },
): EventSubscription {
  const handle: EventSubscription = {
    stop: async () => {
      await subscription.stop();
      running.delete(handle);
    },
  };
  running.add(handle);
  return handle;
}
