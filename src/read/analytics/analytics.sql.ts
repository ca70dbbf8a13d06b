/**
 * The same aggregate columns from two sources: the hourly aggregates (whole hours) and the raw
 * records (the partial hours at the edges of a range). From each: one row for the whole range
 * (with the merged histograms), and GROUPING SETS rows per trunk and per time bucket.
 */
const AGGREGATED_SUMS = `
  sum(calls) AS calls, sum(connected) AS connected, sum(failed) AS failed, sum(duration_sum) AS duration_sum,
  sum(latency_calls) AS latency_calls, sum(carrier_sum) AS carrier_sum, sum(ai_sum) AS ai_sum, sum(gateway_sum) AS gateway_sum,
  sum(total_latency_sum) AS total_latency_sum, sum(loss_calls) AS loss_calls, sum(loss_sum) AS loss_sum,
  sum(jitter_calls) AS jitter_calls, sum(jitter_sum) AS jitter_sum`;
const AGGREGATED_MAPS = 'sumMap(latency_hist) AS hist, sumMap(codecs) AS codecs';

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
const RAW_MAPS = `
  sumMap(if(total_latency_ms IS NULL, CAST([], 'Array(UInt32)'), [latency_bin]), if(total_latency_ms IS NULL, CAST([], 'Array(Int64)'), [toInt64(sign)])) AS hist,
  sumMap(if(codec_group = '', CAST([], 'Array(String)'), [toString(codec_group)]), if(codec_group = '', CAST([], 'Array(Int64)'), [toInt64(sign)])) AS codecs`;

/** The histograms are merged once, for the whole range; per trunk and per bucket need only sums. */
// No trunk_id/bucket aliases here: an alias named like a column would shadow it in WHERE.
const TOTAL = (sums: string, maps: string, from: string, where: string) =>
  `SELECT ${sums}, ${maps}, 1 AS all_trunks, 1 AS all_buckets FROM ${from} WHERE ${where}`;
const GROUPS = (sums: string, bucket: string, from: string, where: string) =>
  `SELECT trunk_id, toUnixTimestamp(${bucket}) AS bucket, ${sums}, grouping(trunk_id) AS all_trunks, grouping(bucket) AS all_buckets
   FROM ${from} WHERE ${where} GROUP BY GROUPING SETS ((trunk_id), (bucket))`;

export type Part = 'total' | 'groups';

export function aggregatesSql(hourly: boolean, withTrunk: boolean, part: Part): string {
  const where = `account_id = {account:String} AND hour >= toDateTime({from_s:Int64}, 'UTC') AND hour < toDateTime({to_s:Int64}, 'UTC')
    ${withTrunk ? 'AND trunk_id = {trunk:String}' : ''}`;
  if (part === 'total') return TOTAL(AGGREGATED_SUMS, AGGREGATED_MAPS, 'call_stats_hourly', where);
  return GROUPS(AGGREGATED_SUMS, hourly ? 'hour' : 'toStartOfDay(hour)', 'call_stats_hourly', where);
}

/** Up to two instant ranges (the partial hours at both edges) in one statement. */
export function rawSql(hourly: boolean, withTrunk: boolean, part: Part): string {
  const range = (n: number) =>
    `(start_time >= fromUnixTimestamp64Milli({from${n}_ms:Int64}, 'UTC') AND start_time < fromUnixTimestamp64Milli({to${n}_ms:Int64}, 'UTC'))`;
  const where = `account_id = {account:String} AND (${range(1)} OR ${range(2)})
    ${withTrunk ? 'AND trunk_id = {trunk:String}' : ''}`;
  if (part === 'total') return TOTAL(RAW_SUMS, RAW_MAPS, 'call_records', where);
  return GROUPS(RAW_SUMS, hourly ? 'toStartOfHour(start_time)' : 'toStartOfDay(start_time)', 'call_records', where);
}

export const TRUNK_DIMENSION_SQL = `SELECT trunk_id, argMax(name, version) AS name, argMax(provider, version) AS provider
  FROM trunk_dimension WHERE account_id = {account:String} GROUP BY trunk_id`;

export interface AggregateRow {
  trunk_id: string;
  bucket: number | string;
  calls: number | string; connected: number | string; failed: number | string; duration_sum: number | string;
  latency_calls: number | string; carrier_sum: number | string; ai_sum: number | string; gateway_sum: number | string; total_latency_sum: number | string;
  loss_calls: number | string; loss_sum: number; jitter_calls: number | string; jitter_sum: number | string;
  /** Only on the whole-range row. */
  hist?: [number[], (number | string)[]];
  codecs?: [string[], (number | string)[]];
  all_trunks: number; all_buckets: number;
}
