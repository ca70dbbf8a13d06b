/**
 * Every SQL statement of the PostgreSQL / PGlite event store. Statements name tables without a
 * schema: each connection's search_path is set to the store's schema when it is opened, so the
 * text stays constant (one prepared statement per text) and no identifier is built per call.
 */

/** A statement and the typed parameters it binds, in order. R is the row type it returns. */
export interface Statement<P, R> {
  readonly text: string;
  readonly values: (params: P) => unknown[];
  /** Phantom: carries the row type for callers. */
  readonly row?: R;
}

export const statement = <P, R>(text: string, values: (params: P) => unknown[]): Statement<P, R> => ({ text, values });

const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

/** Schema names come from config, never from requests; still, only plain identifiers pass. */
export function checkSchemaName(schema: string): string {
  if (!SCHEMA_NAME.test(schema)) throw new Error(`invalid event store schema name: ${JSON.stringify(schema)}`);
  return schema;
}

/** Channel for cross-process wake-ups; the payload is the schema so stores in other schemas ignore it. */
export const NOTIFY_CHANNEL = 'trunkline_events';

export const LISTEN = `LISTEN ${NOTIFY_CHANNEL}`;

export const notify = statement<{ schema: string }, never>('SELECT pg_notify($1, $2)', (p) => [
  NOTIFY_CHANNEL,
  p.schema,
]);

/** Serialises migrations of concurrent processes; DDL "IF NOT EXISTS" alone races. */
export const LOCK_MIGRATIONS = `SELECT pg_advisory_xact_lock(hashtext('trunkline.event-store.migrate'))`;

export const createSchema = (schema: string): string => `CREATE SCHEMA IF NOT EXISTS "${checkSchemaName(schema)}"`;

/** For PGlite, whose single session is configured once; pg connections get it at startup. */
export const setSearchPath = (schema: string): string => `SET search_path TO "${checkSchemaName(schema)}"`;

/** pg startup option: every pooled connection resolves the unqualified names in the store's schema. */
export const searchPathOption = (schema: string): string => `-c search_path=${checkSchemaName(schema)}`;

/**
 * One round trip per append. Outcomes: 'appended' | 'duplicate' (every id already stored in this
 * stream: the original result is returned) | 'conflict' (wrong expected version, or ids that
 * partly overlap stored ones or belong to another stream: a retried batch that differs from the
 * original was decided on other state, so storing half of it would be wrong) | 'stale' (the
 * caller chained its events to a head that is not the stream's head any more: it gets the real
 * head back and chains again). The links themselves are computed by the caller (RFC 8785 JSON is
 * not something SQL can produce); under the stream's lock this only checks they extend the head.
 */
const APPEND_FUNCTION_DDL = `CREATE OR REPLACE FUNCTION append_events(
    p_stream_id text, p_expected text, p_expected_revision bigint,
    p_head_revision bigint, p_head_hash text, p_events jsonb
  ) RETURNS TABLE (outcome text, stream_version bigint, head_hash text, transaction_id text, global_position text)
  LANGUAGE plpgsql AS $fn$
  DECLARE
    v_count int := jsonb_array_length(p_events);
    v_ids uuid[] := ARRAY(SELECT (x->>'id')::uuid FROM jsonb_array_elements(p_events) x);
    v_found int; v_elsewhere int; v_last bigint; v_current bigint; v_head text;
  BEGIN
    -- Taken before this transaction has an xid: appends to one stream then get increasing xids,
    -- so the global order (transaction_id, global_position) keeps each stream's revision order.
    PERFORM pg_advisory_xact_lock(1953720684, hashtext(p_stream_id));
    SELECT count(*), count(*) FILTER (WHERE e.stream_id <> p_stream_id), max(e.revision)
      INTO v_found, v_elsewhere, v_last
      FROM events e WHERE e.event_id = ANY (v_ids); -- an array, not a subquery: always the index
    SELECT s.version, s.head_hash INTO v_current, v_head FROM streams s WHERE s.stream_id = p_stream_id;
    IF v_found = v_count AND v_elsewhere = 0 THEN
      RETURN QUERY SELECT 'duplicate', e.revision, NULL::text, e.transaction_id::text, e.global_position::text
        FROM events e WHERE e.stream_id = p_stream_id AND e.revision = v_last;
      RETURN;
    END IF;
    IF v_found > 0
       OR (p_expected = 'no_stream' AND v_current IS NOT NULL)
       OR (p_expected = 'stream_exists' AND v_current IS NULL)
       OR (p_expected = 'revision' AND v_current IS DISTINCT FROM p_expected_revision) THEN
      RETURN QUERY SELECT 'conflict', v_current, v_head, NULL::text, NULL::text;
      RETURN;
    END IF;
    IF coalesce(v_current, -1) <> p_head_revision OR v_head IS DISTINCT FROM p_head_hash THEN
      RETURN QUERY SELECT 'stale', v_current, v_head, NULL::text, NULL::text;
      RETURN;
    END IF;
    v_head := p_events->(v_count - 1)->>'hash';
    IF v_current IS NULL THEN
      INSERT INTO streams (stream_id, version, head_hash) VALUES (p_stream_id, v_count - 1, v_head);
    ELSE
      UPDATE streams SET version = v_current + v_count, head_hash = v_head WHERE stream_id = p_stream_id;
    END IF;
    WITH inserted AS (
      INSERT INTO events (event_id, stream_id, revision, type, data, metadata, recorded_at, hash, previous_hash)
      SELECT (x->>'id')::uuid, p_stream_id, coalesce(v_current, -1) + n, x->>'type', x->'data', x->'metadata',
             (x->>'recorded_at')::timestamptz, x->>'hash', x->>'previous_hash'
        FROM jsonb_array_elements(p_events) WITH ORDINALITY AS t(x, n) ORDER BY n
      RETURNING events.global_position
    ) SELECT max(inserted.global_position) INTO v_last FROM inserted;
    RETURN QUERY SELECT 'appended', coalesce(v_current, -1) + v_count, v_head, pg_current_xact_id()::text, v_last::text;
  END
  $fn$`;

/**
 * `streams.version` is the revision of the stream's last event and `streams.head_hash` its hash;
 * appends check and bump both. `events.transaction_id` is the writing transaction: readers order
 * by (transaction_id, global_position) and only read below the oldest running transaction, so an
 * event whose transaction commits late is never overtaken by a reader's checkpoint. `hash` and
 * `previous_hash` are the chain (event-hash.ts); a store created before the chain gets them in
 * CHAIN_UPGRADE_DDL and backfill (postgres.chain-backfill.ts).
 */
export const SCHEMA_DDL: readonly string[] = [
  `CREATE TABLE IF NOT EXISTS streams (
     stream_id text PRIMARY KEY,
     version bigint NOT NULL,
     head_hash text
   ) WITH (fillfactor = 80)`, // room for HOT updates of the version on every append
  `CREATE TABLE IF NOT EXISTS events (
     global_position bigserial NOT NULL,
     transaction_id xid8 NOT NULL DEFAULT pg_current_xact_id(),
     event_id uuid NOT NULL,
     stream_id text NOT NULL,
     revision bigint NOT NULL,
     type text NOT NULL,
     data jsonb NOT NULL,
     metadata jsonb NOT NULL,
     recorded_at timestamptz NOT NULL DEFAULT now(),
     hash text NOT NULL,
     previous_hash text,
     PRIMARY KEY (transaction_id, global_position),
     CONSTRAINT events_event_id_key UNIQUE (event_id),
     CONSTRAINT events_stream_revision_key UNIQUE (stream_id, revision)
   )`,
];

/** The append function before the chain: dropped so that no older process writes unchained rows. */
export const FUNCTION_DDL: readonly string[] = [
  'DROP FUNCTION IF EXISTS append_events(text, text, bigint, jsonb)',
  APPEND_FUNCTION_DDL,
];

export type ExpectedKind = 'no_stream' | 'stream_exists' | 'any' | 'revision';

export interface AppendParams {
  streamId: string;
  expected: ExpectedKind;
  /** Only read when expected is 'revision'. */
  expectedRevision: number | null;
  /** The head the links were chained to: -1 and null for a new stream. */
  headRevision: number;
  headHash: string | null;
  /** JSON array of { id, type, data, metadata, recorded_at, hash, previous_hash }. */
  eventsJson: string;
}

export interface AppendRow {
  outcome: 'appended' | 'duplicate' | 'conflict' | 'stale';
  stream_version: string | null;
  head_hash: string | null;
  transaction_id: string | null;
  global_position: string | null;
}

export const appendEvents = statement<AppendParams, AppendRow>(
  `SELECT outcome, stream_version::text AS stream_version, head_hash, transaction_id, global_position
     FROM append_events($1, $2, $3, $4, $5, $6::jsonb)`,
  (p) => [p.streamId, p.expected, p.expectedRevision, p.headRevision, p.headHash, p.eventsJson],
);

export interface EventRow {
  event_id: string;
  type: string;
  data: unknown;
  metadata: Record<string, unknown>;
  stream_id: string;
  revision: string;
  transaction_id: string;
  global_position: string;
  recorded_at: Date;
  hash: string | null;
  previous_hash: string | null;
}

// Text casts keep bigint/xid8 exact in JS. Because the aliases shadow the columns, ORDER BY
// must name `events.<column>` or it would sort the text.
export const EVENT_COLUMNS = `event_id::text AS event_id, type, data, metadata, stream_id, revision::text AS revision,
  transaction_id::text AS transaction_id, global_position::text AS global_position, recorded_at, hash, previous_hash`;

export const readStream = statement<{ streamId: string; fromRevision: number; maxCount: number | null }, EventRow>(
  `SELECT ${EVENT_COLUMNS} FROM events
    WHERE stream_id = $1 AND revision >= $2 ORDER BY events.revision LIMIT $3`,
  (p) => [p.streamId, p.fromRevision, p.maxCount],
);

/**
 * Only transactions older than the oldest still running one are read: anything at or above it
 * may still commit and land before events already visible.
 */
export const readAll = statement<{ afterTransaction: string; afterPosition: string; maxCount: number }, EventRow>(
  `SELECT ${EVENT_COLUMNS} FROM events
    WHERE (transaction_id, global_position) > ($1::xid8, $2::bigint)
      AND transaction_id < pg_snapshot_xmin(pg_current_snapshot())
    ORDER BY events.transaction_id, events.global_position LIMIT $3`,
  (p) => [p.afterTransaction, p.afterPosition, p.maxCount],
);

/**
 * readAll keeping only some event types. The plan stays the ordered scan of the primary key with
 * the type as a filter: an index on type could not give several types back in position order
 * without sorting every matching event after the position, on each page of a rebuild.
 */
export const readAllOfTypes = statement<
  { afterTransaction: string; afterPosition: string; maxCount: number; types: readonly string[] },
  EventRow
>(
  `SELECT ${EVENT_COLUMNS} FROM events
    WHERE (transaction_id, global_position) > ($1::xid8, $2::bigint)
      AND transaction_id < pg_snapshot_xmin(pg_current_snapshot())
      AND type = ANY ($4::text[])
    ORDER BY events.transaction_id, events.global_position LIMIT $3`,
  (p) => [p.afterTransaction, p.afterPosition, p.maxCount, p.types],
);

/** The last position readAll would hand out now, whatever its type. */
export const lastPosition = statement<Record<string, never>, { transaction_id: string; global_position: string }>(
  `SELECT transaction_id::text AS transaction_id, global_position::text AS global_position FROM events
    WHERE transaction_id < pg_snapshot_xmin(pg_current_snapshot())
    ORDER BY events.transaction_id DESC, events.global_position DESC LIMIT 1`,
  () => [],
);

/**
 * Whether events past a position exist that readAll did not hand out: appended by a transaction
 * that committed while an older one, anywhere in the cluster, is still in flight (readAll reads
 * only below the snapshot's xmin so that it never skips a position). A subscription woken by such
 * an append looks again soon instead of sleeping until its idle poll.
 */
export const withheldAfter = statement<{ afterTransaction: string; afterPosition: string }, { withheld: boolean }>(
  `SELECT EXISTS (SELECT 1 FROM events WHERE (transaction_id, global_position) > ($1::xid8, $2::bigint)) AS withheld`,
  (p) => [p.afterTransaction, p.afterPosition],
);

export const ping = statement<Record<string, never>, { ok: number }>('SELECT 1 AS ok', () => []);
