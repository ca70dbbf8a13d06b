import type { ClickHouseExecutor, QueryParams } from '../../infrastructure/clickhouse/clickhouse.port';
import { countRejections, RejectionCounts } from '../../rejections/read/rejection-counts';
import { FAILURE_CLASSES } from '../../shared/failure-taxonomy';

/** Sums of a row of call_signalling_hourly, or of raw records weighted by sign (the same columns). */
const SUMS = ['failed', 'pdd_calls', 'pdd_sum_ms', 'ring_calls', 'ring_sum_ms', 'setup_calls', 'setup_sum_ms'];

const span = (name: string, from: string, to: string) => {
  const both = `${from} IS NOT NULL AND ${to} IS NOT NULL`;
  const ms = `(toUnixTimestamp64Milli(assumeNotNull(${to})) - toUnixTimestamp64Milli(assumeNotNull(${from})))`;
  return `if(${both}, toInt64(sign), 0) AS ${name}_calls, if(${both}, ${ms} * sign, 0) AS ${name}_sum_ms`;
};

/**
 * Failed calls by class and the signalling spans over a range: whole hours from the hourly
 * aggregates, the partial hours at the edges from the raw rows (read without FINAL, weighted by
 * sign as the view aggregates them). Takes the overview's range parameters (h0_s/h1_s and the two
 * raw ranges).
 */
export function gatewaySql(withTrunk: boolean): string {
  const trunk = withTrunk ? 'AND trunk_id = {trunk:String}' : '';
  const ms = (n: number) =>
    `(start_time >= fromUnixTimestamp64Milli({from${n}_ms:Int64}, 'UTC') AND start_time < fromUnixTimestamp64Milli({to${n}_ms:Int64}, 'UTC'))`;
  return `SELECT failure_class, ${SUMS.map((c) => `sum(${c}) AS ${c}`).join(', ')} FROM (
      SELECT failure_class, ${SUMS.join(', ')} FROM call_signalling_hourly
        WHERE account_id = {account:String} AND hour >= toDateTime({h0_s:Int64}, 'UTC') AND hour < toDateTime({h1_s:Int64}, 'UTC') ${trunk}
      UNION ALL
      SELECT failure_class, if(status = 'failed', toInt64(sign), 0) AS failed,
        ${span('pdd', 'invite_at', 'ringing_at')}, ${span('ring', 'ringing_at', 'answered_at')}, ${span('setup', 'invite_at', 'answered_at')}
        FROM call_records WHERE account_id = {account:String} AND (${ms(1)} OR ${ms(2)}) ${trunk}
    ) GROUP BY failure_class`;
}

type Row = Record<(typeof SUMS)[number], number | string> & { failure_class: string };

export interface GatewayBreakdown {
  failures: { by_class: Record<string, number> };
  signalling: {
    calls_with_setup_time: number;
    avg_post_dial_delay_ms: number;
    avg_ring_time_ms: number;
    avg_setup_time_ms: number;
  };
  rejections: RejectionCounts;
}

export async function gatewayBreakdown(
  clickhouse: ClickHouseExecutor,
  params: QueryParams,
  range: { accountId: string; trunkId: string | undefined; start: Date; end: Date },
): Promise<GatewayBreakdown> {
  const [rows, rejections] = await Promise.all([
    clickhouse.query<Row>(gatewaySql(range.trunkId !== undefined), params),
    countRejections(clickhouse, range.accountId, range.trunkId, range.start, range.end),
  ]);
  const total = (column: string) => rows.reduce((sum, row) => sum + Number(row[column]), 0);
  const avg = (name: string) => {
    const calls = total(`${name}_calls`);
    return calls === 0 ? 0 : Math.round(total(`${name}_sum_ms`) / calls);
  };
  const by_class: Record<string, number> = Object.fromEntries([...FAILURE_CLASSES, 'unclassified'].map((c) => [c, 0]));
  for (const row of rows) by_class[row.failure_class || 'unclassified'] += Number(row.failed);
  return {
    failures: { by_class },
    signalling: {
      calls_with_setup_time: total('setup_calls'),
      avg_post_dial_delay_ms: avg('pdd'),
      avg_ring_time_ms: avg('ring'),
      avg_setup_time_ms: avg('setup'),
    },
    rejections,
  };
}
