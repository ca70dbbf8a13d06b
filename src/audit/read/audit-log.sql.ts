import { EVENT_COLUMNS, type EventRow, statement } from '../../infrastructure/event-store/postgres/event-store.sql';

/**
 * The audit log's SQL over the event store's own `events` table (PostgreSQL and PGlite): the
 * account of an event is `data->>'account_id'`, which every account-owned event carries. One
 * expression index makes an account's log a range scan in global order.
 */

export const LOCK_MIGRATIONS = `SELECT pg_advisory_xact_lock(hashtext('trunkline.audit-log.migrate'))`;

export const SCHEMA_DDL: readonly string[] = [
  `CREATE INDEX IF NOT EXISTS events_account_position
     ON events ((data->>'account_id'), transaction_id, global_position)`,
];

export interface AccountEventsParams {
  accountId: string;
  afterTransaction: string;
  afterPosition: string;
  types: string[] | null;
  streams: string[] | null;
  streamPrefix: string | null;
  actor: string | null;
  from: Date | null;
  to: Date | null;
  limit: number;
}

/** Like readAll: only below the oldest running transaction, so a cursor never passes a late commit. */
export const accountEvents = statement<AccountEventsParams, EventRow>(
  `SELECT ${EVENT_COLUMNS} FROM events
    WHERE data->>'account_id' = $1
      AND (transaction_id, global_position) > ($2::xid8, $3::bigint)
      AND transaction_id < pg_snapshot_xmin(pg_current_snapshot())
      AND ($4::text[] IS NULL OR type = ANY ($4::text[]))
      AND ($5::text[] IS NULL OR stream_id = ANY ($5::text[]))
      AND ($6::text IS NULL OR starts_with(stream_id, $6::text))
      AND ($7::text IS NULL OR metadata->>'actor' = $7::text)
      AND ($8::timestamptz IS NULL OR recorded_at >= $8::timestamptz)
      AND ($9::timestamptz IS NULL OR recorded_at <= $9::timestamptz)
    ORDER BY events.transaction_id, events.global_position LIMIT $10`,
  (p) => [
    p.accountId,
    p.afterTransaction,
    p.afterPosition,
    p.types,
    p.streams,
    p.streamPrefix,
    p.actor,
    p.from,
    p.to,
    p.limit,
  ],
);
