/**
 * The event store's tables and append function as they were before the hash chain (commit
 * 575b4da), verbatim. Two uses: the append-cost baseline of bench:audit (same SQL, no chain), and
 * the upgrade test, which fills a store in this shape and opens it with the current code.
 */
const PRE_CHAIN_FUNCTION = `CREATE OR REPLACE FUNCTION append_events(
    p_stream_id text, p_expected text, p_expected_revision bigint, p_events jsonb
  ) RETURNS TABLE (outcome text, stream_version bigint, transaction_id text, global_position text)
  LANGUAGE plpgsql AS $fn$
  DECLARE
    v_count int := jsonb_array_length(p_events);
    v_ids uuid[] := ARRAY(SELECT (x->>'id')::uuid FROM jsonb_array_elements(p_events) x);
    v_found int; v_elsewhere int; v_last bigint; v_current bigint;
  BEGIN
    -- Taken before this transaction has an xid: appends to one stream then get increasing xids,
    -- so the global order (transaction_id, global_position) keeps each stream's revision order.
    PERFORM pg_advisory_xact_lock(1953720684, hashtext(p_stream_id));
    SELECT count(*), count(*) FILTER (WHERE e.stream_id <> p_stream_id), max(e.revision)
      INTO v_found, v_elsewhere, v_last
      FROM events e WHERE e.event_id = ANY (v_ids); -- an array, not a subquery: always the index
    SELECT s.version INTO v_current FROM streams s WHERE s.stream_id = p_stream_id;
    IF v_found = v_count AND v_elsewhere = 0 THEN
      RETURN QUERY SELECT 'duplicate', e.revision, e.transaction_id::text, e.global_position::text
        FROM events e WHERE e.stream_id = p_stream_id AND e.revision = v_last;
      RETURN;
    END IF;
    IF v_found > 0
       OR (p_expected = 'no_stream' AND v_current IS NOT NULL)
       OR (p_expected = 'stream_exists' AND v_current IS NULL)
       OR (p_expected = 'revision' AND v_current IS DISTINCT FROM p_expected_revision) THEN
      RETURN QUERY SELECT 'conflict', v_current, NULL::text, NULL::text;
      RETURN;
    END IF;
    IF v_current IS NULL THEN
      INSERT INTO streams (stream_id, version) VALUES (p_stream_id, v_count - 1);
    ELSE
      UPDATE streams SET version = v_current + v_count WHERE stream_id = p_stream_id;
    END IF;
    WITH inserted AS (
      INSERT INTO events (event_id, stream_id, revision, type, data, metadata)
      SELECT (x->>'id')::uuid, p_stream_id, coalesce(v_current, -1) + n, x->>'type', x->'data', x->'metadata'
        FROM jsonb_array_elements(p_events) WITH ORDINALITY AS t(x, n) ORDER BY n
      RETURNING events.global_position
    ) SELECT max(inserted.global_position) INTO v_last FROM inserted;
    RETURN QUERY SELECT 'appended', coalesce(v_current, -1) + v_count, pg_current_xact_id()::text, v_last::text;
  END
  $fn$`;

export const PRE_CHAIN_DDL: readonly string[] = [
  `CREATE TABLE IF NOT EXISTS streams (
     stream_id text PRIMARY KEY,
     version bigint NOT NULL
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
     PRIMARY KEY (transaction_id, global_position),
     CONSTRAINT events_event_id_key UNIQUE (event_id),
     CONSTRAINT events_stream_revision_key UNIQUE (stream_id, revision)
   )`,
  PRE_CHAIN_FUNCTION,
];

/** The statement the pre-chain store appended with: one round trip, no links. */
export const PRE_CHAIN_APPEND =
  'SELECT outcome, stream_version::text AS stream_version, transaction_id, global_position FROM append_events($1, $2, $3, $4::jsonb)';
