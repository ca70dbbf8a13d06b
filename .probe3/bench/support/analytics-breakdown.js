"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.breakdown = breakdown;
const analytics_sql_1 = require("../../src/read/analytics/analytics.sql");
const analytics_stats_1 = require("./analytics-stats");
const HOUR = 3_600_000;
/**
 * Where the app's time goes: each statement the overview and list handlers send, timed alone
 * through the executor (the app's SQL, the app's parameters), beside variants that answer the
 * same question differently. Runs last: the final variant merges call_stats_hourly (OPTIMIZE).
 */
async function breakdown(clickhouse, r) {
    const from = r.fromMs;
    const to = r.toMs;
    const wholeFrom = Math.ceil(from / HOUR) * HOUR;
    const wholeTo = Math.floor(to / HOUR) * HOUR;
    const account = { account: r.accountId };
    const aggregates = { ...account, from_s: wholeFrom / 1000, to_s: wholeTo / 1000 };
    const out = [];
    const time = async (label, sql, params) => {
        const samples = await (0, analytics_stats_1.timeSequential)(1, r.runs, () => clickhouse.query(sql, params));
        out.push({ label, p50Ms: (0, analytics_stats_1.percentileOf)(samples, 50), p95Ms: (0, analytics_stats_1.percentileOf)(samples, 95) });
    };
    await time('overview: hourly aggregates, whole hours, hourly buckets', (0, analytics_sql_1.aggregatesSql)(true, false), aggregates);
    await time('overview: hourly aggregates, whole hours, daily buckets', (0, analytics_sql_1.aggregatesSql)(false, false), aggregates);
    await time('overview: raw edge before the first whole hour (FINAL)', (0, analytics_sql_1.rawSql)(true, false), { ...account, from_ms: from, to_ms: wholeFrom });
    await time('overview: raw edge after the last whole hour (FINAL)', (0, analytics_sql_1.rawSql)(true, false), { ...account, from_ms: wholeTo, to_ms: to });
    await time('overview: same edge without FINAL (no duplicates here)', (0, analytics_sql_1.rawSql)(true, false).replace('FINAL', ''), { ...account, from_ms: from, to_ms: wholeFrom });
    await time('overview: trunk_dimension names', analytics_sql_1.TRUNK_DIMENSION_SQL, account);
    await time('calls: page 1 rows (FINAL, ORDER BY start_time DESC LIMIT 101)', LIST_PAGE, { ...account, limit: 101, offset: 0 });
    await time('calls: page 1 rows without FINAL', LIST_PAGE.replace('FINAL', ''), { ...account, limit: 101, offset: 0 });
    await time('calls: total, count() FROM call_records FINAL (every page)', 'SELECT count() AS total FROM call_records FINAL WHERE account_id = {account:String}', account);
    await time('calls: total as sum(sign) without FINAL (same number)', 'SELECT sum(sign) AS total FROM call_records WHERE account_id = {account:String}', account);
    const parts = await clickhouse.query("SELECT sum(rows) AS rows FROM system.parts WHERE active AND table = 'call_stats_hourly' AND database = currentDatabase()");
    await clickhouse.command('OPTIMIZE TABLE call_stats_hourly FINAL SETTINGS max_execution_time = 0');
    const merged = await clickhouse.query("SELECT sum(rows) AS rows FROM system.parts WHERE active AND table = 'call_stats_hourly' AND database = currentDatabase()");
    await time(`overview: hourly aggregates, hourly buckets, after OPTIMIZE FINAL (${Number(parts[0].rows).toLocaleString('en-US')} -> ${Number(merged[0].rows).toLocaleString('en-US')} rows)`, (0, analytics_sql_1.aggregatesSql)(true, false), aggregates);
    return out;
}
const LIST_PAGE = `SELECT call_id, trunk_id, from_number, to_number, status, duration_seconds, direction,
  toUnixTimestamp64Milli(start_time) AS start_ms, if(end_time IS NULL, NULL, toUnixTimestamp64Milli(end_time)) AS end_ms,
  carrier_lag_ms, ai_latency_ms, gateway_processing_ms
  FROM call_records FINAL WHERE account_id = {account:String} ORDER BY start_time DESC, call_id DESC LIMIT {limit:UInt32} OFFSET {offset:UInt64}`;
//# sourceMappingURL=analytics-breakdown.js.map