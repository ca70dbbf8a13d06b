import type { EventStore, StoredEvent } from '../../infrastructure/event-store/event-store.port';
import { accountOfEvent } from '../domain/audit-resources';
import type { AuditFilter, AuditLogReader, AuditRead } from '../../eventsourcing/audit-log.port';

const PAGE = 1000;

/**
 * An account's events filtered out of the global log (readAll): for EventStoreDB, which has no
 * index on event data. A read costs the log between the cursor and the page's last match.
 */
export class EventStoreAuditLog implements AuditLogReader {
  constructor(private readonly store: EventStore) {}

  async read({ accountId, after, limit, filter }: AuditRead): Promise<StoredEvent[]> {
    const found: StoredEvent[] = [];
    let cursor = after;
    while (found.length < limit) {
      const batch = await this.store.readAll({ after: cursor, maxCount: PAGE });
      for (const event of batch) {
        if (accountOfEvent(event.data) === accountId && matches(event, filter)) found.push(event);
        if (found.length === limit) return found;
      }
      if (batch.length < PAGE) return found;
      cursor = batch[batch.length - 1].position;
    }
    return found;
  }
}

function matches(e: StoredEvent, f: AuditFilter): boolean {
  const at = e.recordedAt.getTime();
  return (
    (!f.types || f.types.includes(e.type)) &&
    (!f.streams || f.streams.includes(e.streamId)) &&
    (f.streamPrefix === undefined || e.streamId.startsWith(f.streamPrefix)) &&
    (f.actor === undefined || e.metadata.actor === f.actor) &&
    (!f.from || at >= f.from.getTime()) &&
    (!f.to || at <= f.to.getTime())
  );
}
