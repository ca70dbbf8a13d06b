import type { ClickHouseExecutor, QueryParams } from '../../src/infrastructure/clickhouse/clickhouse.port';
import {
  aggregateRange,
  overviewEdgesSql,
  overviewStatements,
  overviewWholeHoursSql,
} from '../../src/analytics/read/analytics.sql';
import type { BreakdownRequest, StatementTime } from './analytics-messages';
import { summarize, timeSequential } from './analytics-timing';

const HOUR = 3_600_000;
const DAY = 86_400_000;

/**
 * Where the app's time goes: each statement the overview and list handlers send, timed alone
 * through the executor (the app's SQL, the app's parameters), beside variants that answer the
 * same question differently.
 */
export async function breakdown(clickhouse: ClickHouseExecutor, r: BreakdownRequest): Promise<StatementTime[]> {
  const from = r.fromMs;
  const to = r.toMs;
  const wholeFrom = Math.ceil(from / HOUR) * HOUR;
  const wholeTo = Math.floor(to / HOUR) * HOUR;
  const account = { account: r.accountId };
  const aggregates = { ...account, ...aggregateRange(wholeFrom, wholeTo) };
  const out: StatementTime[] = [];
  const time = async (label: string, sql: string, params: QueryParams) => {
    // A statement that outlasts the engine's timeout is reported as such; the others still run.
    const samples = await timeSequential(1, r.runs, () => clickhouse.query(sql, params)).catch((error: Error) => error);
    if (samples instanceof Error)
      out.push({ label: `${label}: FAILED (${samples.message.slice(0, 120)})`, p50Ms: NaN, p95Ms: NaN });
    else {
      const { p50, p95 } = summarize(samples);
      out.push({ label, p50Ms: p50, p95Ms: p95 });
    }
  };
  const edges = { ...account, from1_ms: from, to1_ms: wholeFrom, from2_ms: wholeTo, to2_ms: to };
  for (const hourly of [true, false]) {
    const step = hourly ? HOUR : DAY;
    const bucketOf = (ms: number) => (Math.floor(ms / step) * step) / 1000;
    const all = {
      ...aggregates,
      ...edges,
      from_ms: from,
      to_ms: to - 1,
      e1_s: bucketOf(wholeFrom - HOUR),
      e2_s: bucketOf(wholeTo),
    };
    const buckets = hourly ? 'hourly' : 'daily';
    const statements = overviewStatements(hourly, false);
    await time(
      `overview, whole hours (kept per account until a write to them), ${buckets} buckets`,
      overviewWholeHoursSql(hourly, false),
      all,
    );
    for (const [name, sql] of Object.entries(statements.wholeHours))
      if (hourly || name.includes('bucket') || name.includes('bins'))
        await time(`  branch alone, ${buckets}: ${name}`, sql, all);
    await time(`overview, edges (both read), ${buckets} buckets`, overviewEdgesSql(hourly, false), all);
    await time(
      `overview, edges (the end edge read, ${((to - wholeTo) / 60_000).toFixed(0)} min of calls, the start edge kept: a dashboard up to now), ${buckets} buckets`,
      overviewEdgesSql(hourly, false),
      { ...all, from1_ms: wholeFrom },
    );
    await time(
      `overview, edges (both kept: rejections and trunk names only), ${buckets} buckets`,
      overviewEdgesSql(hourly, false, false),
      all,
    );
    for (const [name, sql] of Object.entries(statements.edges))
      await time(`  branch alone, ${buckets}: ${name}`, sql, all);
  }
  await time('calls: page 1 rows (FINAL, ORDER BY start_time DESC LIMIT 101)', LIST_PAGE, {
    ...account,
    limit: 101,
    offset: 0,
  });
  await time('calls: page 1 rows without FINAL', LIST_PAGE.replace('FINAL', ''), { ...account, limit: 101, offset: 0 });
  await time(
    'calls: total, count() FROM call_records FINAL (every page)',
    'SELECT count() AS total FROM call_records FINAL WHERE account_id = {account:String}',
    account,
  );
  await time(
    'calls: total as sum(sign) without FINAL (same number)',
    'SELECT sum(sign) AS total FROM call_records WHERE account_id = {account:String}',
    account,
  );
  return out;
}

const LIST_PAGE = `SELECT call_id, trunk_id, from_number, to_number, status, duration_seconds, direction,
  toUnixTimestamp64Milli(start_time) AS start_ms, if(end_time IS NULL, NULL, toUnixTimestamp64Milli(end_time)) AS end_ms,
  carrier_lag_ms, ai_latency_ms, gateway_processing_ms
  FROM call_records FINAL WHERE account_id = {account:String} ORDER BY start_time DESC, call_id DESC LIMIT {limit:UInt32} OFFSET {offset:UInt64}`;
