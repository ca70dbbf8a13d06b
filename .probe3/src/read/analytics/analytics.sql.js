"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.TRUNK_DIMENSION_SQL = void 0;
exports.aggregatesSql = aggregatesSql;
exports.rawSql = rawSql;
/**
 * The same aggregate columns from two sources: the hourly aggregates (whole hours) and the raw
 * records (the partial hours at the edges of a range). Both group by GROUPING SETS: the whole
 * range, per trunk, and per time bucket, in one query each.
 */
const AGGREGATED = `
  sum(calls) AS calls, sum(connected) AS connected, sum(failed) AS failed, sum(duration_sum) AS duration_sum,
  sum(latency_calls) AS latency_calls, sum(carrier_sum) AS carrier_sum, sum(ai_sum) AS ai_sum, sum(gateway_sum) AS gateway_sum,
  sum(total_latency_sum) AS total_latency_sum, sum(loss_calls) AS loss_calls, sum(loss_sum) AS loss_sum,
  sum(jitter_calls) AS jitter_calls, sum(jitter_sum) AS jitter_sum,
  if(grouping(trunk_id) = 1 AND grouping(bucket) = 1, sumMap(latency_hist), (CAST([], 'Array(UInt32)'), CAST([], 'Array(Int64)'))) AS hist,
  if(grouping(trunk_id) = 1 AND grouping(bucket) = 1, sumMap(codecs), (CAST([], 'Array(String)'), CAST([], 'Array(Int64)'))) AS codecs,
  grouping(trunk_id) AS all_trunks, grouping(bucket) AS all_buckets`;
const RAW = `
  count() AS calls, countIf(status = 'connected') AS connected, countIf(status = 'failed') AS failed, sum(toInt64(duration_seconds)) AS duration_sum,
  countIf(total_latency_ms IS NOT NULL) AS latency_calls,
  sumIf(toInt64(carrier_lag_ms), total_latency_ms IS NOT NULL) AS carrier_sum, sumIf(toInt64(ai_latency_ms), total_latency_ms IS NOT NULL) AS ai_sum,
  sumIf(toInt64(gateway_processing_ms), total_latency_ms IS NOT NULL) AS gateway_sum, sum(toInt64(ifNull(total_latency_ms, 0))) AS total_latency_sum,
  countIf(packet_loss_percent IS NOT NULL) AS loss_calls, sum(ifNull(packet_loss_percent, 0)) AS loss_sum,
  countIf(jitter_ms IS NOT NULL) AS jitter_calls, sum(toInt64(ifNull(jitter_ms, 0))) AS jitter_sum,
  if(grouping(trunk_id) = 1 AND grouping(bucket) = 1,
     sumMap(if(total_latency_ms IS NULL, CAST([], 'Array(UInt32)'), [latency_bin]), if(total_latency_ms IS NULL, CAST([], 'Array(Int64)'), [toInt64(1)])),
     (CAST([], 'Array(UInt32)'), CAST([], 'Array(Int64)'))) AS hist,
  if(grouping(trunk_id) = 1 AND grouping(bucket) = 1,
     sumMap(if(codec_group = '', CAST([], 'Array(String)'), [toString(codec_group)]), if(codec_group = '', CAST([], 'Array(Int64)'), [toInt64(1)])),
     (CAST([], 'Array(String)'), CAST([], 'Array(Int64)'))) AS codecs,
  grouping(trunk_id) AS all_trunks, grouping(bucket) AS all_buckets`;
const GROUPS = 'GROUP BY GROUPING SETS ((), (trunk_id), (bucket))';
function aggregatesSql(hourly, withTrunk) {
    const bucket = hourly ? 'hour' : 'toStartOfDay(hour)';
    return `SELECT trunk_id, toUnixTimestamp(${bucket}) AS bucket, ${AGGREGATED}
    FROM call_stats_hourly
    WHERE account_id = {account:String} AND hour >= toDateTime({from_s:Int64}, 'UTC') AND hour < toDateTime({to_s:Int64}, 'UTC')
    ${withTrunk ? 'AND trunk_id = {trunk:String}' : ''}
    ${GROUPS}`;
}
function rawSql(hourly, withTrunk) {
    const bucket = hourly ? 'toStartOfHour(start_time)' : 'toStartOfDay(start_time)';
    return `SELECT trunk_id, toUnixTimestamp(${bucket}) AS bucket, ${RAW}
    FROM call_records FINAL
    WHERE account_id = {account:String}
      AND start_time >= fromUnixTimestamp64Milli({from_ms:Int64}, 'UTC') AND start_time < fromUnixTimestamp64Milli({to_ms:Int64}, 'UTC')
    ${withTrunk ? 'AND trunk_id = {trunk:String}' : ''}
    ${GROUPS}`;
}
exports.TRUNK_DIMENSION_SQL = `SELECT trunk_id, argMax(name, version) AS name, argMax(provider, version) AS provider
  FROM trunk_dimension WHERE account_id = {account:String} GROUP BY trunk_id`;
//# sourceMappingURL=analytics.sql.js.map