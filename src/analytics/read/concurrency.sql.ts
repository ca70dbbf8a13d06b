import { CALL_RECORDS } from '../../infrastructure/clickhouse/schema';
/**
 * Concurrent calls per bucket in one sweep over the calls' starts and ends (docs/analytics.md,
 * "Concurrent calls").
 *
 * A call occupies [start_time, end) with end = end_time, or start_time + duration_seconds without
 * one, and at most MAX_CALL_MS after its start (the longest duration ingestion accepts), so the
 * calls that can reach into [from, to) all started in [from − MAX_CALL_MS, to): a range read of
 * the table's sort key. Each call is a +1 at its start (clipped to the range) and a −1 at its end;
 * each bucket's first instant in the range and the range's end add a 0. Ordered by (t, delta), ends
 * before starts at the same instant (a call ending as another starts never overlaps it), the
 * running sum is the number of calls in progress after each event. Within a bucket, its maximum is
 * the peak (the earliest instant reaching it), and level × (next event − this one) summed is the
 * area (call-milliseconds), which divided by the bucket's length in the range is the mean. Every
 * bucket has its 0 event, so no interval between two events crosses a bucket's boundary.
 */
export const MAX_CALL_MS = 7 * 86_400_000;

const START_MS = 'toUnixTimestamp64Milli(start_time)';
const END_MS = `least(if(end_time IS NULL, ${START_MS} + toInt64(duration_seconds) * 1000, toUnixTimestamp64Milli(assumeNotNull(end_time))), ${START_MS} + ${MAX_CALL_MS})`;

export function concurrencySql(withTrunk: boolean): string {
  const trunk = withTrunk ? 'AND trunk_id = {trunk:String}' : '';
  const calls = `SELECT ${START_MS} AS s, ${END_MS} AS e FROM ${CALL_RECORDS.name} FINAL
    WHERE account_id = {account:String} ${trunk}
      AND start_time >= fromUnixTimestamp64Milli({from_ms:Int64} - ${MAX_CALL_MS}, 'UTC')
      AND start_time < fromUnixTimestamp64Milli({to_ms:Int64}, 'UTC')`;
  const events = `SELECT ev.1 AS t, ev.2 AS delta
      FROM (SELECT arrayJoin([(toInt64(greatest(s, {from_ms:Int64})), toInt8(1)), (toInt64(e), toInt8(-1))]) AS ev FROM (${calls}) WHERE e > s AND e > {from_ms:Int64})
      WHERE t < {to_ms:Int64}
    UNION ALL
    SELECT arrayJoin({marks:Array(Int64)}) AS t, toInt8(0) AS delta`;
  const sweep = `SELECT t, delta,
      sum(delta) OVER (ORDER BY t, delta ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS level,
      leadInFrame(t) OVER (ORDER BY t, delta ROWS BETWEEN CURRENT ROW AND 1 FOLLOWING) AS next_t
    FROM (${events})`;
  return `SELECT intDiv(t, {step_ms:Int64}) * {step_ms:Int64} AS bucket, max(level) AS peak,
      argMax(t, (level, -t)) AS peak_at, sum(level * (next_t - t)) AS area
    FROM (${sweep}) WHERE t < {to_ms:Int64}
    GROUP BY bucket ORDER BY bucket`;
}
