/** The Int64 sums of the stats tables (migration 4's rollups and the overview name them too). */
export const SUMS = [
  'calls',
  'connected',
  'failed',
  'duration_sum',
  'latency_calls',
  'carrier_sum',
  'ai_sum',
  'gateway_sum',
  'total_latency_sum',
  'loss_calls',
  'jitter_calls',
  'jitter_sum',
] as const;

/** call_stats_hourly re-aggregated per UTC day (shared by the view and the backfill). */
const DAILY_SELECT = `SELECT
      account_id,
      trunk_id,
      toStartOfDay(hour) AS day,
      ${SUMS.map((column) => `sum(${column}) AS ${column}`).join(',\n      ')},
      sum(loss_sum) AS loss_sum,
      sumMap(codecs) AS codecs
    FROM call_stats_hourly
    GROUP BY account_id, trunk_id, day`;

/** Signed call counts per latency bin and hour, from the raw records (view and backfill). */
const LATENCY_HOURLY_SELECT = `SELECT account_id, trunk_id, toStartOfHour(start_time) AS hour, latency_bin AS bin, sum(toInt64(sign)) AS n
    FROM call_records
    WHERE total_latency_ms IS NOT NULL
    GROUP BY account_id, trunk_id, hour, bin`;

const LATENCY_DAILY_SELECT = `SELECT account_id, trunk_id, toStartOfDay(hour) AS day, bin, sum(n) AS n
    FROM call_latency_hourly
    GROUP BY account_id, trunk_id, day, bin`;

/**
 * Daily aggregates and the latency histogram as rows.
 *
 * The histogram kept as a sumMap per hour and trunk costs a map merge per aggregate row at read
 * time; stored as one row per (hour or day, trunk, bin) with a signed count, the overview's
 * percentiles are a plain GROUP BY bin, which ClickHouse runs vectorised over millions of rows in
 * milliseconds. Counts stay signed, so retracted versions are subtracted as before.
 *
 * The daily tables are views cascading from the hourly ones (ClickHouse runs a view on the rows
 * another view inserts), so they read the hourly views' already-aggregated blocks, not every raw
 * row. Whole days are read from them; the hourly tables serve the hours at a range's edges.
 *
 * Backfill: each table is emptied and refilled from its source before its view exists, so a re-run
 * after a half-applied attempt counts nothing twice. Rows inserted between a backfill and its
 * view's creation would be missed: every instance applies migrations at start, before it listens.
 */
export const DAILY_STATS_MIGRATION = {
  version: 2,
  name: 'daily aggregates and latency histogram rows',
  sql: [
    `CREATE TABLE IF NOT EXISTS call_stats_daily (
      account_id LowCardinality(String),
      trunk_id LowCardinality(String),
      day DateTime('UTC'),
      ${SUMS.map((column) => `${column} SimpleAggregateFunction(sum, Int64)`).join(',\n      ')},
      loss_sum SimpleAggregateFunction(sum, Float64),
      codecs SimpleAggregateFunction(sumMap, Tuple(Array(String), Array(Int64)))
    ) ENGINE = AggregatingMergeTree
    PARTITION BY toYYYYMM(day)
    ORDER BY (account_id, day, trunk_id)`,
    'TRUNCATE TABLE IF EXISTS call_stats_daily',
    `INSERT INTO call_stats_daily ${DAILY_SELECT}`,
    `CREATE MATERIALIZED VIEW IF NOT EXISTS call_stats_daily_mv TO call_stats_daily AS ${DAILY_SELECT}`,

    `CREATE TABLE IF NOT EXISTS call_latency_hourly (
      account_id LowCardinality(String),
      trunk_id LowCardinality(String),
      hour DateTime('UTC'),
      bin UInt32,
      n SimpleAggregateFunction(sum, Int64)
    ) ENGINE = AggregatingMergeTree
    PARTITION BY toYYYYMM(hour)
    ORDER BY (account_id, hour, trunk_id, bin)`,
    `CREATE TABLE IF NOT EXISTS call_latency_daily (
      account_id LowCardinality(String),
      trunk_id LowCardinality(String),
      day DateTime('UTC'),
      bin UInt32,
      n SimpleAggregateFunction(sum, Int64)
    ) ENGINE = AggregatingMergeTree
    PARTITION BY toYYYYMM(day)
    ORDER BY (account_id, day, trunk_id, bin)`,
    'TRUNCATE TABLE IF EXISTS call_latency_daily',
    'TRUNCATE TABLE IF EXISTS call_latency_hourly',
    `INSERT INTO call_latency_hourly ${LATENCY_HOURLY_SELECT}`,
    `INSERT INTO call_latency_daily ${LATENCY_DAILY_SELECT}`,
    `CREATE MATERIALIZED VIEW IF NOT EXISTS call_latency_daily_mv TO call_latency_daily AS ${LATENCY_DAILY_SELECT}`,
    `CREATE MATERIALIZED VIEW IF NOT EXISTS call_latency_hourly_mv TO call_latency_hourly AS ${LATENCY_HOURLY_SELECT}`,
  ],
};
