import { rollup } from './004-account-rollups';

const SUM = 'SimpleAggregateFunction(sum, Int64)';

/** The Int64 sums of the talk tables (the overview names them too). */
export const TALK_SUMS = ['answered', 'billable_sum', 'mos_calls', 'mos_centi_sum'] as const;

/**
 * talkOf's rule (src/ingestion/call-record.ts) in SQL, as the defaults of rows stored before this
 * migration: answered when the gateway saw the answer, or, without one, when the call is not
 * failed and its final code (if any) is 2xx; billable = answer → end floored, at most the
 * duration, the whole duration without signalling times, 0 when never answered.
 */
const CODE = 'assumeNotNull(sip_code)';
export const ANSWERED_SQL = `toUInt8(answered_at IS NOT NULL OR (status != 'failed' AND (sip_code IS NULL OR (${CODE} >= 200 AND ${CODE} < 300))))`;
const TALKED_MS =
  'toUnixTimestamp64Milli(assumeNotNull(end_time)) - toUnixTimestamp64Milli(assumeNotNull(answered_at))';
export const BILLABLE_SQL = `toUInt32(if(${ANSWERED_SQL} = 0, 0, if(answered_at IS NULL OR end_time IS NULL, toInt64(duration_seconds),
  least(toInt64(duration_seconds), greatest(toInt64(0), intDiv(${TALKED_MS}, 1000))))))`;

/** Per hour and trunk: answered calls, billable seconds, and the calls with a MOS with its sum in hundredths. */
const TALK_HOURLY_SELECT = `SELECT
      account_id,
      trunk_id,
      toStartOfHour(start_time) AS hour,
      sum(toInt64(answered) * sign) AS answered,
      sum(toInt64(billable_seconds) * sign) AS billable_sum,
      sum(if(mos IS NULL, 0, toInt64(sign))) AS mos_calls,
      sum(if(mos IS NULL, 0, toInt64(round(assumeNotNull(mos) * 100)) * sign)) AS mos_centi_sum
    FROM call_records
    GROUP BY account_id, trunk_id, hour`;

/**
 * What a media gateway measures and what a carrier bills (issues 25 and 26): `answered` and
 * `billable_seconds` (answer → end) beside `duration_seconds` (the whole call, ringing included),
 * and `mos` (the E-model's MOS, 1-4.5, nullable).
 *
 * The stored rows get the columns' defaults, the same rule ingestion applies (a spec compares
 * them), computed when read; a re-sent call's cancel row repeats them, so the aggregates subtract
 * exactly what they added.
 *
 * call_talk_hourly sums them per hour and trunk (MOS in hundredths, so every sum is an Int64 and
 * the overview packs them with the others), and account_talk_hourly over the trunks, backfilled
 * then fed by views as migrations 2-4 do. Hourly only, like the signalling sums: a 400-day range
 * is 9,600 rows of an account.
 */
export const TALK_AND_QUALITY_MIGRATION = {
  version: 5,
  name: 'billable seconds, answered calls and MOS',
  sql: [
    `ALTER TABLE call_records ADD COLUMN IF NOT EXISTS answered UInt8 DEFAULT ${ANSWERED_SQL}`,
    `ALTER TABLE call_records ADD COLUMN IF NOT EXISTS billable_seconds UInt32 DEFAULT ${BILLABLE_SQL}`,
    'ALTER TABLE call_records ADD COLUMN IF NOT EXISTS mos Nullable(Float64)',

    `CREATE TABLE IF NOT EXISTS call_talk_hourly (
      account_id LowCardinality(String),
      trunk_id LowCardinality(String),
      hour DateTime('UTC'),
      ${TALK_SUMS.map((c) => `${c} ${SUM}`).join(',\n      ')}
    ) ENGINE = AggregatingMergeTree
    PARTITION BY toYYYYMM(hour)
    ORDER BY (account_id, hour, trunk_id)`,
    'TRUNCATE TABLE IF EXISTS call_talk_hourly',
    `INSERT INTO call_talk_hourly ${TALK_HOURLY_SELECT}`,
    `CREATE MATERIALIZED VIEW IF NOT EXISTS call_talk_hourly_mv TO call_talk_hourly AS ${TALK_HOURLY_SELECT}`,
    ...rollup({ table: 'account_talk_hourly', source: 'call_talk_hourly', time: 'hour', keys: [], sums: TALK_SUMS }),
  ],
};
