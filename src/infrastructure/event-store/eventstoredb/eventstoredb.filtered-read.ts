import {
  type AllStreamResolvedEvent,
  type EventStoreDBClient,
  eventTypeFilter,
  type Position,
  START,
} from '@eventstore/db-client';
import { comparePositions, type GlobalPosition, type StoredEvent } from '../event-store.port';
import { toClientPosition, toGlobalPosition, toStoredEvent } from './eventstoredb.mapping';

const escapeRegex = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The server's event-type filter matching exactly `types` (prefixes would match more). */
export const exactTypesRegex = (types: readonly string[]): string =>
  types.length === 0 ? '^$.' : `^(?:${types.map(escapeRegex).join('|')})$`;

/**
 * readAll of some event types, filtered by the server. The client (v6) takes a filter only on
 * subscribeToAll, so this is a catch-up subscription from `after` that ends once it holds
 * `maxCount` events, or has looked as far as `head` (the last position before the read: an event
 * or a filter checkpoint at or past it), or the server says it caught up. The stream is read by
 * one consumer, its 'data' events in order; on the end, what it buffered is read out first. A
 * filter naming no system type ($...) lets none through.
 */
export function readAllOfTypes(
  client: EventStoreDBClient,
  after: GlobalPosition | null,
  maxCount: number,
  types: readonly string[],
  head: GlobalPosition,
): Promise<StoredEvent[]> {
  const events: StoredEvent[] = [];
  const reached = (position: GlobalPosition) => comparePositions(position, head) >= 0;
  return new Promise<StoredEvent[]>((resolve, reject) => {
    let done = false;
    const finish = (error?: unknown): void => {
      if (done) return;
      done = true;
      void subscription.unsubscribe().catch(() => undefined);
      if (error) reject(error);
      else resolve(events);
    };
    const drainThenFinish = (): void => {
      subscription.pause();
      while (!done && subscription.read() !== null); // each read() emits 'data' for its item
      finish();
    };
    const subscription = client.subscribeToAll(
      {
        fromPosition: after ? toClientPosition(after) : START,
        filter: eventTypeFilter({
          regex: exactTypesRegex(types),
          checkpointInterval: 1,
          checkpointReached: (_s, position: Position) => {
            if (reached(toGlobalPosition(position))) drainThenFinish();
          },
        }),
      },
      { highWaterMark: Math.min(maxCount, 1000) },
    );
    subscription.on('data', (resolved: AllStreamResolvedEvent) => {
      const event = resolved.event;
      if (done || !event) return;
      const position = toGlobalPosition(event.position);
      if (after && comparePositions(position, after) <= 0) return;
      events.push(toStoredEvent(event));
      if (events.length >= maxCount || reached(position)) finish();
    });
    subscription.once('caughtUp', drainThenFinish);
    subscription.once('error', (error: unknown) => finish(error));
  });
}
