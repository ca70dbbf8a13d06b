import { EVENT_COLUMNS, type EventRow, statement } from './event-store.sql';

/**
 * The statements that bring a store created before the hash chain up to it: add the columns,
 * fill them for the rows already there (postgres.chain-backfill.ts), then require them.
 */

/** Whether the events table still lacks a required hash column (a store created before the chain). */
export const chainColumnState = statement<Record<string, never>, { has_hash: boolean; hash_required: boolean }>(
  `SELECT count(*) > 0 AS has_hash, coalesce(bool_or(a.attnotnull), false) AS hash_required
     FROM pg_attribute a WHERE a.attrelid = 'events'::regclass AND a.attname = 'hash' AND NOT a.attisdropped`,
  () => [],
);

/** Adds the chain's columns to a store created before it; the backfill then fills them. */
export const CHAIN_UPGRADE_DDL: readonly string[] = [
  'ALTER TABLE events ADD COLUMN IF NOT EXISTS hash text, ADD COLUMN IF NOT EXISTS previous_hash text',
  'ALTER TABLE streams ADD COLUMN IF NOT EXISTS head_hash text',
];

export const REQUIRE_HASH = 'ALTER TABLE events ALTER COLUMN hash SET NOT NULL';

/** Rows without a hash, in stream order, from after (stream, revision): the backfill's pages. */
export const unhashedPage = statement<{ afterStream: string; afterRevision: string; limit: number }, EventRow>(
  `SELECT ${EVENT_COLUMNS} FROM events
    WHERE (stream_id, revision) > ($1, $2::bigint) AND hash IS NULL
    ORDER BY events.stream_id, events.revision LIMIT $3`,
  (p) => [p.afterStream, p.afterRevision, p.limit],
);

export const setLinks = statement<{ ids: string[]; hashes: string[]; previous: (string | null)[] }, never>(
  `UPDATE events e SET hash = u.hash, previous_hash = u.previous_hash
     FROM unnest($1::uuid[], $2::text[], $3::text[]) AS u(event_id, hash, previous_hash)
    WHERE e.event_id = u.event_id`,
  (p) => [p.ids, p.hashes, p.previous],
);

export const SET_HEAD_HASHES = `UPDATE streams s SET head_hash = e.hash FROM events e
  WHERE e.stream_id = s.stream_id AND e.revision = s.version AND s.head_hash IS NULL`;
