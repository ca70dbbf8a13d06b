import { rollup } from './004-account-rollups';

/**
 * Failed calls per hour, trunk and final SIP code (issue 30: the overview's failures by SIP code).
 * `sip_code` 0 stands for a failed record that carries none (SIP codes are 100-699; a sort key
 * column cannot be Nullable without a setting the server may not have). Only failed rows are
 * aggregated: a re-sent call's cancel row repeats the stored version, status included, so the
 * failed version it retracts is subtracted here and a version that is no longer failed adds nothing.
 *
 * call_failure_codes_hourly (per trunk) and account_failure_codes_hourly (over the trunks) are
 * backfilled from the stored rows before their views exist (each emptied first, so a re-run counts
 * nothing twice), then fed by views, as migrations 2-5 do. Hourly only, like the signalling sums.
 */
// ifNull, not assumeNotNull: in parts written before migration 3 sip_code does not exist and reads
// as NULL. The code is renamed in the inner query: aliasing an expression of sip_code as sip_code
// would be a cyclic alias.
const FAILURE_CODES_HOURLY_SELECT = `SELECT account_id, trunk_id, hour, code AS sip_code, failed FROM (
    SELECT
      account_id,
      trunk_id,
      toStartOfHour(start_time) AS hour,
      toUInt16(ifNull(sip_code, 0)) AS code,
      sum(toInt64(sign)) AS failed
    FROM call_records
    WHERE status = 'failed'
    GROUP BY account_id, trunk_id, hour, code)`;

export const FAILURE_CODES_MIGRATION = {
  version: 7,
  name: 'failed calls by final SIP code',
  sql: [
    `CREATE TABLE IF NOT EXISTS call_failure_codes_hourly (
      account_id LowCardinality(String),
      trunk_id LowCardinality(String),
      hour DateTime('UTC'),
      sip_code UInt16,
      failed SimpleAggregateFunction(sum, Int64)
    ) ENGINE = AggregatingMergeTree
    PARTITION BY toYYYYMM(hour)
    ORDER BY (account_id, hour, trunk_id, sip_code)`,
    'TRUNCATE TABLE IF EXISTS call_failure_codes_hourly',
    `INSERT INTO call_failure_codes_hourly ${FAILURE_CODES_HOURLY_SELECT}`,
    `CREATE MATERIALIZED VIEW IF NOT EXISTS call_failure_codes_hourly_mv TO call_failure_codes_hourly AS ${FAILURE_CODES_HOURLY_SELECT}`,
    ...rollup({
      table: 'account_failure_codes_hourly',
      source: 'call_failure_codes_hourly',
      time: 'hour',
      keys: [['sip_code', 'UInt16']],
      sums: ['failed'],
    }),
  ],
};
