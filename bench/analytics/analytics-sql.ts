/**
 * The overview computed without the hourly aggregates: from the raw rows in ClickHouse
 * (call_records FINAL, exact quantiles) and in PostgreSQL (percentile_cont). Each is two
 * statements, as the app's handler is: the whole-range figures (with percentiles and codecs),
 * then per trunk and per time bucket in one GROUPING SETS pass.
 */

const CH_RANGE = `account_id = {account:String}
  AND start_time >= fromUnixTimestamp64Milli({from_ms:Int64}, 'UTC') AND start_time < fromUnixTimestamp64Milli({to_ms:Int64}, 'UTC')`;

export const CH_RAW_TOTALS = `SELECT
  count() AS calls, countIf(status = 'connected') AS connected, countIf(status = 'failed') AS failed,
  sum(duration_seconds) AS duration_sum,
  avgIf(carrier_lag_ms, total_latency_ms IS NOT NULL) AS avg_carrier, avgIf(ai_latency_ms, total_latency_ms IS NOT NULL) AS avg_ai,
  avgIf(gateway_processing_ms, total_latency_ms IS NOT NULL) AS avg_gateway, avg(total_latency_ms) AS avg_total,
  quantilesExact(0.95, 0.99)(total_latency_ms) AS pct,
  avg(packet_loss_percent) AS avg_loss, avg(jitter_ms) AS avg_jitter,
  sumMap(if(codec_group = '', CAST([], 'Array(String)'), [toString(codec_group)]), if(codec_group = '', CAST([], 'Array(UInt64)'), [toUInt64(1)])) AS codecs
FROM call_records FINAL WHERE ${CH_RANGE}`;

export function chRawGroups(hourly: boolean): string {
  return `SELECT trunk_id, toUnixTimestamp(${hourly ? 'toStartOfHour' : 'toStartOfDay'}(start_time)) AS bucket,
    count() AS calls, countIf(status = 'connected') AS connected, avg(total_latency_ms) AS avg_total, grouping(trunk_id) AS all_trunks
  FROM call_records FINAL WHERE ${CH_RANGE}
  GROUP BY GROUPING SETS ((trunk_id), (bucket))`;
}

/** The columns PostgreSQL gets: all but turns and sip_trace, the two large text columns. */
export const PG_COLUMNS = [
  'account_id',
  'call_id',
  'trunk_id',
  'provider',
  'direction',
  'status',
  'from_number',
  'to_number',
  'start_time',
  'end_time',
  'duration_seconds',
  'carrier_lag_ms',
  'ai_latency_ms',
  'gateway_processing_ms',
  'total_latency_ms',
  'packet_loss_percent',
  'jitter_ms',
  'codec_used',
  'codec_group',
  'disconnect_reason',
] as const;

/** Latest version of each call, as CSV the PostgreSQL COPY reads (ISO instants, \N for NULL). */
export function chExportCsv(path: string): string {
  const quoted = path.replace(/\\/g, '\\\\').replace(/'/g, "\\'");
  return `INSERT INTO FUNCTION file('${quoted}', 'CSV')
    SELECT ${PG_COLUMNS.join(', ')} FROM call_records FINAL WHERE account_id = {account:String}
    SETTINGS max_execution_time = 0`;
}

export function pgCreateTable(schema: string): string {
  return `CREATE TABLE "${schema}".call_records (
    account_id text NOT NULL, call_id text NOT NULL, trunk_id text NOT NULL, provider text NOT NULL, direction text NOT NULL,
    status text NOT NULL, from_number text NOT NULL, to_number text NOT NULL,
    start_time timestamptz NOT NULL, end_time timestamptz, duration_seconds integer NOT NULL,
    carrier_lag_ms integer, ai_latency_ms integer, gateway_processing_ms integer, total_latency_ms integer,
    packet_loss_percent double precision, jitter_ms integer, codec_used text NOT NULL, codec_group text NOT NULL, disconnect_reason text NOT NULL
  )`;
}

export const pgCreateIndex = (schema: string): string =>
  `CREATE INDEX call_records_account_start ON "${schema}".call_records (account_id, start_time)`;

const PG_RANGE = 'account_id = $1 AND start_time >= $2 AND start_time < $3';

export const pgTotals = (schema: string): string => `SELECT
  count(*) AS calls, count(*) FILTER (WHERE status = 'connected') AS connected, count(*) FILTER (WHERE status = 'failed') AS failed,
  sum(duration_seconds) AS duration_sum,
  avg(carrier_lag_ms) FILTER (WHERE total_latency_ms IS NOT NULL) AS avg_carrier, avg(ai_latency_ms) FILTER (WHERE total_latency_ms IS NOT NULL) AS avg_ai,
  avg(gateway_processing_ms) FILTER (WHERE total_latency_ms IS NOT NULL) AS avg_gateway, avg(total_latency_ms) AS avg_total,
  percentile_cont(0.95) WITHIN GROUP (ORDER BY total_latency_ms) AS p95, percentile_cont(0.99) WITHIN GROUP (ORDER BY total_latency_ms) AS p99,
  avg(packet_loss_percent) AS avg_loss, avg(jitter_ms) AS avg_jitter
FROM "${schema}".call_records WHERE ${PG_RANGE}`;

export const pgCodecs = (schema: string): string =>
  `SELECT codec_group, count(*) AS calls FROM "${schema}".call_records WHERE ${PG_RANGE} AND codec_group <> '' GROUP BY codec_group`;

export function pgGroups(schema: string, hourly: boolean): string {
  return `SELECT trunk_id, date_trunc('${hourly ? 'hour' : 'day'}', start_time AT TIME ZONE 'UTC') AS bucket,
    count(*) AS calls, count(*) FILTER (WHERE status = 'connected') AS connected, avg(total_latency_ms) AS avg_total, GROUPING(trunk_id) AS all_trunks
  FROM "${schema}".call_records WHERE ${PG_RANGE}
  GROUP BY GROUPING SETS ((trunk_id), (date_trunc('${hourly ? 'hour' : 'day'}', start_time AT TIME ZONE 'UTC')))`;
}
