/**
 * The tables an INSERT into call_records writes: call_records itself and every table its
 * materialized views write, directly or through another view (the account rollups read the
 * trunk-level tables). A test derives the same list from the migrations' views, so a view added
 * later without its table here fails there.
 */
export const CALL_RECORDS_INSERT_TABLES = [
  'call_records',
  'call_stats_hourly',
  'call_stats_daily',
  'call_latency_hourly',
  'call_latency_daily',
  'call_signalling_hourly',
  'call_talk_hourly',
  'call_failure_codes_hourly',
  'call_overview_rows',
  'account_stats_hourly',
  'account_latency_hourly',
  'account_latency_daily',
  'account_signalling_hourly',
  'account_talk_hourly',
  'account_failure_codes_hourly',
] as const;

/** Blocks remembered per table: far more INSERTs than can come between a failed one and its re-send. */
export const DEDUPLICATION_WINDOW = 1_000;

/**
 * Exactly-once re-sends of a failed call-records INSERT (the writer's, call-record.writer.ts).
 *
 * An INSERT stores its rows in call_records and then pushes them through each materialized view;
 * if the engine refuses it half-way (a memory cap, a timeout, a crash), the rows may be stored and
 * some views fed while others were not. Sending the same records again as a new INSERT would then
 * cancel rows that some views never counted. Instead the writer sends the very same text again
 * with the same insert_deduplication_token: with a deduplication window on every table the INSERT
 * writes, each block is stored once in call_records and once in each view's table, whichever of
 * them the failed attempt reached. Replicated tables (cluster mode) keep such a window by default;
 * this gives the embedded engine's and a single server's plain MergeTree tables one.
 */
export const INSERT_DEDUPLICATION_MIGRATION = {
  version: 9,
  name: 'deduplication window on call_records and the tables of its views',
  sql: CALL_RECORDS_INSERT_TABLES.map(
    (table) => `ALTER TABLE ${table} MODIFY SETTING non_replicated_deduplication_window = ${DEDUPLICATION_WINDOW}`,
  ),
};
