import type { EventStore } from '../../infrastructure/event-store/event-store.port';
import { PostgresEventStore } from '../../infrastructure/event-store/postgres/postgres.event-store';
import type { AuditLogReader } from '../../eventsourcing/audit-log.port';
import { EventStoreAuditLog } from './event-store.audit-log';
import { migrateAuditLog, SqlAuditLog } from './sql.audit-log';

/** By the event store's kind: SQL over its table and index, or a filter over the global log. */
export async function createAuditLog(store: EventStore): Promise<AuditLogReader> {
  if (store instanceof PostgresEventStore) {
    await migrateAuditLog(store.sql);
    return new SqlAuditLog(store.sql);
  }
  return new EventStoreAuditLog(store);
}
