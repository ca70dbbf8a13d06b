"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.settle = settle;
exports.partsOf = partsOf;
exports.timeRawOverview = timeRawOverview;
exports.exportCsv = exportCsv;
const node_fs_1 = require("node:fs");
const analytics_sql_1 = require("./analytics-sql");
const analytics_stats_1 = require("./analytics-stats");
/*
 * The bench's own statements, run in the app child through the app's executor: chDB allows one
 * engine per process, so they cannot run anywhere else while the app holds the data directory.
 */
/** Waits until no merge runs (twice in a row, a second apart), then reports the parts. */
async function settle(clickhouse, timeoutMs) {
    const started = performance.now();
    let quiet = 0;
    while (quiet < 2 && performance.now() - started < timeoutMs) {
        const [{ merges }] = await clickhouse.query('SELECT count() AS merges FROM system.merges WHERE database = currentDatabase()');
        quiet = Number(merges) === 0 ? quiet + 1 : 0;
        if (quiet < 2)
            await new Promise((resolve) => setTimeout(resolve, 1000));
    }
    return { ms: performance.now() - started, settled: quiet >= 2, parts: await partsOf(clickhouse) };
}
async function partsOf(clickhouse) {
    const rows = await clickhouse.query(`SELECT table, count() AS parts, sum(rows) AS rows, sum(bytes_on_disk) AS bytes FROM system.parts
     WHERE active AND database = currentDatabase() AND table IN ('call_records', 'call_stats_hourly') GROUP BY table ORDER BY table`);
    return rows.map((r) => ({ table: r.table, parts: Number(r.parts), rows: Number(r.rows), bytesOnDisk: Number(r.bytes) }));
}
/** The overview from call_records FINAL: the whole-range figures, then per trunk and per bucket. */
async function timeRawOverview(clickhouse, request) {
    const params = { account: request.accountId, from_ms: request.fromMs, to_ms: request.toMs };
    let last = null;
    const samplesMs = await (0, analytics_stats_1.timeSequential)(request.warmup, request.runs, async () => {
        const [totals] = await clickhouse.query(analytics_sql_1.CH_RAW_TOTALS, params);
        const groups = await clickhouse.query((0, analytics_sql_1.chRawGroups)(request.hourly), params);
        last = { totals, groups };
    });
    return { samplesMs, headline: headlineOf(last) };
}
function headlineOf({ totals, groups }) {
    const trunks = groups.filter((g) => Number(g.all_trunks) === 0).length;
    return {
        totalCalls: Number(totals.calls), connectedCalls: Number(totals.connected), p95: Number(totals.pct[0]), p99: Number(totals.pct[1]),
        trunks, buckets: groups.length - trunks,
    };
}
/** The latest version of every call of the account, as CSV for PostgreSQL's COPY. */
async function exportCsv(clickhouse, path, accountId) {
    const started = performance.now();
    await clickhouse.command((0, analytics_sql_1.chExportCsv)(path), { account: accountId });
    const ms = performance.now() - started;
    const [{ rows }] = await clickhouse.query('SELECT count() AS rows FROM call_records FINAL WHERE account_id = {account:String}', { account: accountId });
    return { rows: Number(rows), ms, bytes: (0, node_fs_1.statSync)(path).size };
}
//# sourceMappingURL=analytics-engine.js.map