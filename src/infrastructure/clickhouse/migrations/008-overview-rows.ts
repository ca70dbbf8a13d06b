/** The columns of call_records the overview's partial edge hours read (analytics.sql.ts, rawEdges). */
const COLUMNS = `account_id, start_time, sign, trunk_id, status, duration_seconds, carrier_lag_ms, ai_latency_ms,
      gateway_processing_ms, total_latency_ms, latency_bin, packet_loss_percent, jitter_ms, codec_group, invite_at,
      ringing_at, answered_at, sip_code, failure_class, answered, billable_seconds, mos`;

/**
 * The overview's edges (issue 31.2): the raw rows of the partial hours at a range's edges, read on
 * every request, from a narrow copy of call_records instead of the table itself.
 *
 * call_records carries ~40 columns, two of them kilobytes long, and its parts are large and merge
 * slowly, so an edge read touches a granule of 8,192 rows in each of its parts. call_overview_rows
 * holds every row call_records is given, cancel rows included, with only the ~20 small columns the
 * edges read, sorted by (account_id, start_time) in granules of 1,024 rows: its parts are small and
 * merge quickly, and a partial hour reads fewer rows of fewer parts. It is a plain MergeTree: rows
 * are never collapsed, so the edges' sign-weighted sums are those of call_records row for row.
 *
 * Backfilled from the stored rows after emptying it, then fed by the view (every INSERT into
 * call_records, cancel rows with their sign), as migrations 2-7 do; a re-run counts nothing twice.
 * Columns added by migrations 3 and 5 read their defaults in older parts, as call_records shows them.
 */
export const OVERVIEW_ROWS_MIGRATION = {
  version: 8,
  name: 'narrow call rows for the overview edges',
  sql: [
    `CREATE TABLE IF NOT EXISTS call_overview_rows (
      account_id LowCardinality(String),
      start_time DateTime64(3, 'UTC') CODEC(Delta, ZSTD(1)),
      sign Int8,
      trunk_id LowCardinality(String),
      status LowCardinality(String),
      duration_seconds UInt32,
      carrier_lag_ms Nullable(UInt32),
      ai_latency_ms Nullable(UInt32),
      gateway_processing_ms Nullable(UInt32),
      total_latency_ms Nullable(UInt32),
      latency_bin UInt32,
      packet_loss_percent Nullable(Float64),
      jitter_ms Nullable(UInt32),
      codec_group LowCardinality(String),
      invite_at Nullable(DateTime64(3, 'UTC')),
      ringing_at Nullable(DateTime64(3, 'UTC')),
      answered_at Nullable(DateTime64(3, 'UTC')),
      sip_code Nullable(UInt16),
      failure_class LowCardinality(String),
      answered UInt8,
      billable_seconds UInt32,
      mos Nullable(Float64)
    ) ENGINE = MergeTree
    PARTITION BY toYYYYMM(start_time)
    ORDER BY (account_id, start_time)
    SETTINGS index_granularity = 1024`,
    'TRUNCATE TABLE IF EXISTS call_overview_rows',
    `INSERT INTO call_overview_rows SELECT ${COLUMNS} FROM call_records`,
    `CREATE MATERIALIZED VIEW IF NOT EXISTS call_overview_rows_mv TO call_overview_rows AS SELECT ${COLUMNS} FROM call_records`,
  ],
};
