import {
  comparePositions,
  type EventStore,
  type GlobalPosition,
} from '../../src/infrastructure/event-store/event-store.port';
import { SETTLE_DEADLINE_MS } from './deadlines';
import { until } from './free-port';

/**
 * Resolves once the event at `position` is visible to readers: the store's lastPosition (the last
 * position readAll would hand out now) has reached it. readAll, the audit log and every
 * subscription return only events below the oldest transaction still running anywhere on the
 * PostgreSQL cluster, so that no cursor ever passes a late commit; on the shared test PostgreSQL
 * another file's open transaction can hide an event appended a moment ago. A test reads what it
 * appended once this resolves (docs/testing.md, "The shared PostgreSQL").
 */
export async function visible(store: Pick<EventStore, 'lastPosition'>, position: GlobalPosition): Promise<void> {
  await until(
    'the appended events are visible to readers',
    async () => {
      const last = await store.lastPosition();
      return last !== null && comparePositions(last, position) >= 0;
    },
    SETTLE_DEADLINE_MS,
  );
}
