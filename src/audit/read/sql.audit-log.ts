import { migrateLocked, toStoreError, toStoredEvent } from '../../infrastructure/event-store/postgres/event-rows';
import type { EventRow } from '../../infrastructure/event-store/postgres/event-store.sql';
import type { SqlClient } from '../../infrastructure/event-store/postgres/sql-client';
import type { StoredEvent } from '../../infrastructure/event-store/event-store.port';
import * as sql from './audit-log.sql';
import type { AuditLogReader, AuditRead } from '../../eventsourcing/audit-log.port';

/** Creates the account index on the events table; safe to run from several processes at once. */
export function migrateAuditLog(client: SqlClient): Promise<void> {
  return migrateLocked(client, sql.LOCK_MIGRATIONS, sql.SCHEMA_DDL);
}

/** An account's events by the account index, filters applied in the database (PostgreSQL, PGlite). */
export class SqlAuditLog implements AuditLogReader {
  constructor(private readonly client: SqlClient) {}

  async read({ accountId, after, limit, filter }: AuditRead): Promise<StoredEvent[]> {
    const params = sql.accountEvents.values({
      accountId,
      afterTransaction: after ? after.hi.toString() : '0',
      afterPosition: after ? after.lo.toString() : '0',
      types: filter.types ? [...filter.types] : null,
      streams: filter.streams ? [...filter.streams] : null,
      streamPrefix: filter.streamPrefix ?? null,
      actor: filter.actor ?? null,
      from: filter.from ?? null,
      to: filter.to ?? null,
      limit,
    });
    try {
      const { rows } = await this.client.query<EventRow>(sql.accountEvents.text, params);
      return rows.map(toStoredEvent);
    } catch (error) {
      throw toStoreError(error);
    }
  }
}
