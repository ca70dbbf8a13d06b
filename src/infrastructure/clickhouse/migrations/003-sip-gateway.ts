const DATETIME = "Nullable(DateTime64(3, 'UTC'))";

/** Sign-weighted count and sum of milliseconds between two nullable instants of a row. */
const span = (name: string, from: string, to: string) => {
  const both = `${from} IS NOT NULL AND ${to} IS NOT NULL`;
  const ms = `(toUnixTimestamp64Milli(assumeNotNull(${to})) - toUnixTimestamp64Milli(assumeNotNull(${from})))`;
  return `sum(if(${both}, toInt64(sign), 0)) AS ${name}_calls, sum(if(${both}, ${ms} * sign, 0)) AS ${name}_sum_ms`;
};

/** Per hour, trunk and failure class: failed calls and the signalling spans (view and backfill). */
export const SIGNALLING_HOURLY_SELECT = `SELECT
      account_id,
      trunk_id,
      toStartOfHour(start_time) AS hour,
      failure_class,
      sum(if(status = 'failed', toInt64(sign), 0)) AS failed,
      ${span('pdd', 'invite_at', 'ringing_at')},
      ${span('ring', 'ringing_at', 'answered_at')},
      ${span('setup', 'invite_at', 'answered_at')}
    FROM call_records
    GROUP BY account_id, trunk_id, hour, failure_class`;
const SUM = 'SimpleAggregateFunction(sum, Int64)';

/**
 * What a SIP gateway reports (docs/sip-gateway.md): the caller as given with its E.164 form, the
 * signalling times, the INVITE's final response and the failure taxonomy on call records, and the
 * rejection log.
 *
 * The E.164 columns default to the number columns, which held only E.164 numbers before, so the
 * `from`/`to` filters read them for old and new rows alike without a backfill.
 *
 * call_signalling_hourly: failed calls by class and the post-dial delay (INVITE → ringing), ring
 * time (ringing → answer) and setup time (INVITE → answer) as signed sums per hour, trunk and
 * class, so the overview reads them like the other hourly aggregates (backfilled, then the view).
 *
 * call_rejections: one row per refused INVITE, kept by (account, trunk, time, id). A gateway that
 * re-sends a spooled rejection sends the same id and time, so the row replaces itself (readers use
 * FINAL); rejections of an unknown user name have no account and are kept under account ''.
 */
export const SIP_GATEWAY_MIGRATION = {
  version: 3,
  name: 'sip gateway signalling, failure taxonomy, rejection log',
  sql: [
    'ALTER TABLE call_records ADD COLUMN IF NOT EXISTS from_e164 String DEFAULT from_number',
    'ALTER TABLE call_records ADD COLUMN IF NOT EXISTS to_e164 String DEFAULT to_number',
    `ALTER TABLE call_records ADD COLUMN IF NOT EXISTS invite_at ${DATETIME}`,
    `ALTER TABLE call_records ADD COLUMN IF NOT EXISTS ringing_at ${DATETIME}`,
    `ALTER TABLE call_records ADD COLUMN IF NOT EXISTS answered_at ${DATETIME}`,
    'ALTER TABLE call_records ADD COLUMN IF NOT EXISTS sip_code Nullable(UInt16)',
    "ALTER TABLE call_records ADD COLUMN IF NOT EXISTS sip_reason String DEFAULT ''",
    'ALTER TABLE call_records ADD COLUMN IF NOT EXISTS q850_cause Nullable(UInt8)',
    "ALTER TABLE call_records ADD COLUMN IF NOT EXISTS failure_class LowCardinality(String) DEFAULT ''",
    'ALTER TABLE call_records ADD COLUMN IF NOT EXISTS retryable Nullable(UInt8)',
    "ALTER TABLE call_records ADD COLUMN IF NOT EXISTS source_address String DEFAULT ''",

    `CREATE TABLE IF NOT EXISTS call_rejections (
      account_id LowCardinality(String),
      trunk_id LowCardinality(String),
      at DateTime64(3, 'UTC') CODEC(Delta, ZSTD(1)),
      rejection_id String,
      reason LowCardinality(String),
      sip_code UInt16,
      sip_reason String,
      source_address String,
      sip_username String,
      from_number String,
      to_number String,
      ingested_at DateTime64(3, 'UTC')
    ) ENGINE = ReplacingMergeTree(ingested_at)
    PARTITION BY toYYYYMM(at)
    ORDER BY (account_id, trunk_id, at, rejection_id)`,

    `CREATE TABLE IF NOT EXISTS call_signalling_hourly (
      account_id LowCardinality(String),
      trunk_id LowCardinality(String),
      hour DateTime('UTC'),
      failure_class LowCardinality(String),
      failed ${SUM},
      ${['pdd', 'ring', 'setup'].map((name) => `${name}_calls ${SUM},\n      ${name}_sum_ms ${SUM}`).join(',\n      ')}
    ) ENGINE = AggregatingMergeTree
    PARTITION BY toYYYYMM(hour)
    ORDER BY (account_id, hour, trunk_id, failure_class)`,
    'TRUNCATE TABLE IF EXISTS call_signalling_hourly',
    `INSERT INTO call_signalling_hourly ${SIGNALLING_HOURLY_SELECT}`,
    `CREATE MATERIALIZED VIEW IF NOT EXISTS call_signalling_hourly_mv TO call_signalling_hourly AS ${SIGNALLING_HOURLY_SELECT}`,
  ],
};
