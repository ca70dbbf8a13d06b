/**
 * The overview's statements. The same aggregate columns come from three sources: the daily
 * aggregates (whole UTC days), the hourly aggregates (the other whole hours) and the raw records
 * (the partial hours at the edges of a range). Each statement returns, with GROUPING SETS, one row
 * for the whole range and rows per trunk and per time bucket. Latency percentiles come from one
 * more statement over the histogram rows of the same three sources.
 */
const AGGREGATED_SUMS = `
  sum(calls) AS calls, sum(connected) AS connected, sum(failed) AS failed, sum(duration_sum) AS duration_sum,
  sum(latency_calls) AS latency_calls, sum(carrier_sum) AS carrier_sum, sum(ai_sum) AS ai_sum, sum(gateway_sum) AS gateway_sum,
  sum(total_latency_sum) AS total_latency_sum, sum(loss_calls) AS loss_calls, sum(loss_sum) AS loss_sum,
  sum(jitter_calls) AS jitter_calls, sum(jitter_sum) AS jitter_sum`;

/*
 * Raw rows are read without FINAL: every expression is weighted by `sign`, exactly as the
 * materialized view aggregates them, so a cancelled version and its cancel row add up to nothing.
 */
const RAW_SUMS = `
  sum(toInt64(sign)) AS calls, sum(if(status = 'connected', toInt64(sign), 0)) AS connected, sum(if(status = 'failed', toInt64(sign), 0)) AS failed,
  sum(toInt64(duration_seconds) * sign) AS duration_sum,
  sum(if(total_latency_ms IS NULL, 0, toInt64(sign))) AS latency_calls,
  sum(toInt64(ifNull(carrier_lag_ms, 0)) * if(total_latency_ms IS NULL, 0, sign)) AS carrier_sum,
  sum(toInt64(ifNull(ai_latency_ms, 0)) * if(total_latency_ms IS NULL, 0, sign)) AS ai_sum,
  sum(toInt64(ifNull(gateway_processing_ms, 0)) * if(total_latency_ms IS NULL, 0, sign)) AS gateway_sum,
  sum(toInt64(ifNull(total_latency_ms, 0)) * sign) AS total_latency_sum,
  sum(if(packet_loss_percent IS NULL, 0, toInt64(sign))) AS loss_calls, sum(ifNull(packet_loss_percent, 0) * sign) AS loss_sum,
  sum(if(jitter_ms IS NULL, 0, toInt64(sign))) AS jitter_calls, sum(toInt64(ifNull(jitter_ms, 0)) * sign) AS jitter_sum`;
const RAW_CODECS = `sumMap(if(codec_group = '', CAST([], 'Array(String)'), [toString(codec_group)]), if(codec_group = '', CAST([], 'Array(Int64)'), [toInt64(sign)])) AS codecs`;
const NO_CODECS = `CAST(([], []), 'Tuple(Array(String), Array(Int64))')`;

const AGGREGATE_COLUMNS =
  'trunk_id, calls, connected, failed, duration_sum, latency_calls, carrier_sum, ai_sum, gateway_sum, total_latency_sum, loss_calls, loss_sum, jitter_calls, jitter_sum, codecs';
const at = (name: string) => `toDateTime({${name}:Int64}, 'UTC')`;
const trunkFilter = (withTrunk: boolean) => (withTrunk ? 'AND trunk_id = {trunk:String}' : '');

// No trunk_id/bucket aliases over a table's own columns: an alias named like a column would shadow
// it in WHERE. Sets: () is the whole range, (trunk_id) per trunk, (bucket) per time bucket.
const GROUPED = (sums: string, codecs: string, bucket: string, from: string, where: string) =>
  `SELECT trunk_id, toUnixTimestamp(${bucket}) AS bucket, ${sums}, ${codecs}, grouping(trunk_id) AS all_trunks, grouping(bucket) AS all_buckets
   FROM ${from} WHERE ${where} GROUP BY GROUPING SETS ((), (trunk_id), (bucket))`;

/** Whole UTC days [d0, d1) from the daily table and the other whole hours [h0, d0) and [d1, h1) from the hourly one. */
function daysAndHours(dailyTable: string, hourlyTable: string, columns: string, withTrunk: boolean): string {
  return `SELECT day AS t, ${columns} FROM ${dailyTable}
      WHERE account_id = {account:String} AND day >= ${at('d0_s')} AND day < ${at('d1_s')} ${trunkFilter(withTrunk)}
    UNION ALL
    SELECT hour AS t, ${columns} FROM ${hourlyTable}
      WHERE account_id = {account:String} AND ((hour >= ${at('h0_s')} AND hour < ${at('d0_s')}) OR (hour >= ${at('d1_s')} AND hour < ${at('h1_s')})) ${trunkFilter(withTrunk)}`;
}

/**
 * The whole-hour part of the range: whole range, per trunk and per bucket. Daily buckets read the
 * daily aggregates; hourly buckets need the hourly table over the whole range, in a second SELECT
 * (UNION ALL names its columns after the first one, so the second one's aliases must not shadow
 * the columns its WHERE reads).
 */
export function aggregatesSql(hourly: boolean, withTrunk: boolean): string {
  const source = `(${daysAndHours('call_stats_daily', 'call_stats_hourly', AGGREGATE_COLUMNS, withTrunk)})`;
  if (!hourly) return GROUPED(AGGREGATED_SUMS, 'sumMap(codecs) AS codecs', 'toStartOfDay(t)', source, '1');
  const hours = `account_id = {account:String} AND hour >= ${at('h0_s')} AND hour < ${at('h1_s')} ${trunkFilter(withTrunk)}`;
  return `SELECT trunk_id, 0 AS bucket, ${AGGREGATED_SUMS}, sumMap(codecs) AS codecs, grouping(trunk_id) AS all_trunks, 1 AS all_buckets
      FROM ${source} GROUP BY GROUPING SETS ((), (trunk_id))
    UNION ALL
    SELECT '' AS no_trunk, toUnixTimestamp(hour) AS bucket_s, ${AGGREGATED_SUMS}, ${NO_CODECS} AS no_codecs, 1 AS all_trunks_, 0 AS all_buckets_
      FROM call_stats_hourly WHERE ${hours} GROUP BY hour`;
}

export interface AggregateRangeParams {
  h0_s: number;
  d0_s: number;
  d1_s: number;
  h1_s: number;
}
export interface RawRangeParams {
  from1_ms: number;
  to1_ms: number;
  from2_ms: number;
  to2_ms: number;
}

/** aggregatesSql's parameters for the whole hours [fromMs, toMs) (multiples of an hour; empty when equal). */
export function aggregateRange(fromMs: number, toMs: number): AggregateRangeParams {
  const DAY = 86_400_000;
  if (fromMs >= toMs) return { h0_s: 0, d0_s: 0, d1_s: 0, h1_s: 0 };
  let d0 = Math.ceil(fromMs / DAY) * DAY;
  let d1 = Math.floor(toMs / DAY) * DAY;
  if (d0 >= d1) d0 = d1 = toMs;
  return { h0_s: fromMs / 1000, d0_s: d0 / 1000, d1_s: d1 / 1000, h1_s: toMs / 1000 };
}

const rawRanges = () => {
  const range = (n: number) =>
    `(start_time >= fromUnixTimestamp64Milli({from${n}_ms:Int64}, 'UTC') AND start_time < fromUnixTimestamp64Milli({to${n}_ms:Int64}, 'UTC'))`;
  return `account_id = {account:String} AND (${range(1)} OR ${range(2)})`;
};

/** The partial hours at both edges (up to two instant ranges), from the raw records. */
export function rawSql(hourly: boolean, withTrunk: boolean): string {
  return GROUPED(
    RAW_SUMS,
    RAW_CODECS,
    hourly ? 'toStartOfHour(start_time)' : 'toStartOfDay(start_time)',
    'call_records',
    `${rawRanges()} ${trunkFilter(withTrunk)}`,
  );
}

/**
 * Calls per latency bin over the whole range: histogram rows of whole days and whole hours, plus
 * the raw records of the partial hours. A vectorised GROUP BY bin, where merging one sumMap per
 * aggregate row cost a map merge each. Bins whose signed counts cancel out are dropped.
 */
export function latencySql(withTrunk: boolean): string {
  return `SELECT bin, sum(n) AS calls_in_bin FROM (
      ${daysAndHours('call_latency_daily', 'call_latency_hourly', 'bin, n', withTrunk)}
      UNION ALL
      SELECT start_time AS t, latency_bin AS bin, toInt64(sign) AS n FROM call_records
        WHERE ${rawRanges()} AND total_latency_ms IS NOT NULL ${trunkFilter(withTrunk)}
    ) GROUP BY bin HAVING calls_in_bin != 0`;
}

export const TRUNK_DIMENSION_SQL = `SELECT trunk_id, argMax(name, version) AS name, argMax(provider, version) AS provider
  FROM trunk_dimension WHERE account_id = {account:String} GROUP BY trunk_id`;

export interface AggregateRow {
  trunk_id: string;
  bucket: number | string;
  calls: number | string;
  connected: number | string;
  failed: number | string;
  duration_sum: number | string;
  latency_calls: number | string;
  carrier_sum: number | string;
  ai_sum: number | string;
  gateway_sum: number | string;
  total_latency_sum: number | string;
  loss_calls: number | string;
  loss_sum: number;
  jitter_calls: number | string;
  jitter_sum: number | string;
  codecs: [string[], (number | string)[]];
  all_trunks: number;
  all_buckets: number;
}

export interface LatencyBinRow {
  bin: number;
  calls_in_bin: number | string;
}
