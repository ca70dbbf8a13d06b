/**
 * The sync feed of call records (GET /v1/calls/changes, docs/analytics.md "The sync feed"): records
 * in the order they were stored, by `version`, which the writer raises above everything already
 * published before each INSERT.
 *
 * call_feed_horizon holds the highest version whose INSERT returned (one row after merges: a max
 * kept by an AggregatingMergeTree). The feed serves versions up to it only, so a reader never
 * passes a version whose INSERT is still landing (an INSERT spanning months writes one part per
 * month, and parts become visible one by one). Backfilled with the highest stored version, so
 * every record stored before this migration is in the feed. The minmax index on version lets a
 * feed read skip the granules (mostly those of older parts) below its cursor.
 */
export const CALL_FEED_MIGRATION = {
  version: 6,
  name: 'call records sync feed: published horizon and version index',
  sql: [
    `CREATE TABLE IF NOT EXISTS call_feed_horizon (
      id UInt8,
      version SimpleAggregateFunction(max, UInt64)
    ) ENGINE = AggregatingMergeTree
    ORDER BY id`,
    // Repeatable: a max inserted twice is the same max.
    'INSERT INTO call_feed_horizon SELECT 0, max(version) FROM call_records',
    'ALTER TABLE call_records ADD INDEX IF NOT EXISTS idx_version version TYPE minmax GRANULARITY 1',
    'ALTER TABLE call_records MATERIALIZE INDEX idx_version',
  ],
};
