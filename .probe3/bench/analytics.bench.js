"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
const node_crypto_1 = require("node:crypto");
const node_fs_1 = require("node:fs");
const node_os_1 = require("node:os");
const node_path_1 = require("node:path");
const analytics_child_1 = require("./support/analytics-child");
const analytics_http_1 = require("./support/analytics-http");
const analytics_options_1 = require("./support/analytics-options");
const analytics_postgres_1 = require("./support/analytics-postgres");
const analytics_report_1 = require("./support/analytics-report");
const cleanups_1 = require("./support/cleanups");
const probe_1 = require("./support/probe");
/*
 * GET /v1/analytics/overview over 30 days of calls, against two baselines computed in the same
 * run from the same rows: the raw rows in the same engine (call_records FINAL, exact quantiles)
 * and PostgreSQL (percentile_cont). Then the cost of a deep cursor page of GET /v1/calls.
 *
 * chDB allows one engine per process, so the app child owns it: the bulk load and the raw-row
 * baseline run in that child, through the app's executor, as bench-only IPC commands. The child
 * starts on a fresh data directory (embedded chDB, PGlite, in-memory read models), provisions the
 * account first, and the rows are generated for that account.
 */
const DAY_MS = 86_400_000;
const PAGE_RUNS = 10;
const APP_VARIABLES = ['ADMIN_API_KEY', 'APP_ENV', 'CLICKHOUSE_URL', 'EVENT_STORE_URL', 'EVENT_STORE_SCHEMA', 'REDIS_URL', 'REDIS_NAMESPACE',
    'TLS_MODE', 'TLS_CERT_FILE', 'TLS_KEY_FILE', 'PORT', 'HOST', 'MASTER_KEY'];
async function run(options, cleanups) {
    const dataDir = (0, node_fs_1.mkdtempSync)((0, node_path_1.join)((0, node_os_1.tmpdir)(), 'trunkline-analytics-bench-'));
    cleanups.add('remove data dir', async () => (0, node_fs_1.rmSync)(dataDir, { recursive: true, force: true }));
    const app = await analytics_child_1.AnalyticsAppChild.start((0, node_path_1.join)(__dirname, 'support', 'analytics-app-server.js'), appEnvironment(dataDir), cleanups);
    const { accountId, accountKey, cert, port } = app.ready;
    const origin = `https://127.0.0.1:${port}`;
    await (0, probe_1.getUntilOk)(`${origin}/v1/calls?limit=1`, cert, { authorization: `Bearer ${accountKey}` });
    const to = new Date();
    const from = new Date(to.getTime() - options.days * DAY_MS);
    progress(`loading ${options.calls.toLocaleString('en-US')} calls into chDB`);
    const loaded = await app.call('load', {
        accountId, calls: options.calls, trunks: options.trunks, seed: options.seed, fromMs: from.getTime(), toMs: to.getTime(),
        batchRows: options.batchRows, shortSipTrace: options.shortSipTrace,
    });
    progress(`loaded in ${(loaded.ms / 1000).toFixed(1)} s; waiting for background merges`);
    const settled = await app.call('settle', { timeoutMs: options.settleSeconds * 1000 });
    const load = { ...loaded, batchRows: options.batchRows, shortSipTrace: options.shortSipTrace, settleMs: settled.ms, settled: settled.settled, parts: settled.parts };
    const loadBeforeMeasuring = (0, node_os_1.loadavg)()[0];
    const series = [];
    const api = new analytics_http_1.ApiClient(origin, cert, accountKey);
    cleanups.add('close HTTP client', () => api.close());
    for (const hourly of [true, false]) {
        progress(`app overview, ${granularity(hourly)}`);
        const timed = await (0, analytics_http_1.timeOverview)(api, (0, analytics_http_1.overviewPath)(from, to, hourly), options.warmup, options.runs);
        series.push(named('app', hourly, `app over HTTPS (aggregates + raw edges), ${granularity(hourly)}`, timed));
    }
    for (const hourly of [true, false]) {
        progress(`raw rows in chDB, ${granularity(hourly)}`);
        const timed = await app.call('raw', { accountId, fromMs: from.getTime(), toMs: to.getTime() + 1, hourly, warmup: 1, runs: options.rawRuns });
        series.push(named('raw', hourly, `same engine, raw rows (call_records FINAL), ${granularity(hourly)}`, timed));
    }
    progress(`GET /v1/calls: walking ${Math.min(options.walkPages, options.pages)} pages by next_cursor, then page ${options.pages}`);
    const pages = await (0, analytics_http_1.measurePages)(api, { pageSize: options.pageSize, pages: options.pages, walkPages: options.walkPages }, PAGE_RUNS);
    await api.close();
    progress('statement breakdown in chDB');
    const statements = await app.call('breakdown', { accountId, fromMs: from.getTime(), toMs: to.getTime() + 1, runs: 5 });
    let exported = null;
    const csvPath = (0, node_path_1.join)(dataDir, 'call_records.csv');
    if (options.postgres) {
        progress('exporting the rows as CSV for PostgreSQL');
        exported = await app.call('export', { path: csvPath, accountId });
    }
    // PostgreSQL gets the machine to itself.
    await app.stop();
    const postgres = options.postgres ? await postgresSeries(options, cleanups, { csvPath, accountId, from, to }) : null;
    if (postgres)
        series.push(...postgres.series);
    if (exported && postgres && exported.rows !== postgres.load.rows)
        throw new Error(`PostgreSQL holds ${postgres.load.rows} rows, chDB exported ${exported.rows}`);
    return {
        machine: { cpu: (0, node_os_1.cpus)()[0]?.model.trim() ?? 'unknown', cores: (0, node_os_1.cpus)().length, memoryGb: (0, node_os_1.totalmem)() / 2 ** 30, node: process.version, chdb: app.ready.chdbVersion,
            loadAverage: { beforeMeasuring: loadBeforeMeasuring, atEnd: (0, node_os_1.loadavg)()[0] } },
        load, exportMs: exported?.ms ?? 0, postgresLoad: postgres?.load ?? null, postgresSettings: postgres?.load.settings ?? null, series, pages, statements,
    };
}
async function postgresSeries(options, cleanups, data) {
    const schema = `bench_analytics_${(0, node_crypto_1.randomBytes)(6).toString('hex')}`;
    cleanups.add(`drop schema ${schema}`, () => (0, cleanups_1.dropSchema)(options.databaseUrl, schema));
    progress(`PostgreSQL: loading schema ${schema}`);
    const load = await (0, analytics_postgres_1.loadPostgres)(options.databaseUrl, schema, data.csvPath);
    (0, node_fs_1.rmSync)(data.csvPath, { force: true });
    const series = [];
    for (const hourly of [true, false]) {
        progress(`PostgreSQL overview, ${granularity(hourly)}`);
        const timed = await (0, analytics_postgres_1.timePostgresOverview)({
            url: options.databaseUrl, schema, accountId: data.accountId, from: data.from, to: new Date(data.to.getTime() + 1), hourly,
            warmup: 1, runs: options.pgRuns, workMem: options.pgWorkMem,
        });
        series.push(named('postgres', hourly, `PostgreSQL (percentile_cont), ${granularity(hourly)}`, timed));
    }
    return { load, series };
}
const granularity = (hourly) => (hourly ? 'hourly' : 'daily');
function named(source, hourly, label, timed) {
    return { source, granularity: hourly ? 'hourly' : 'daily', label, samplesMs: timed.samplesMs, headline: timed.headline };
}
/** Embedded everything on the temp data directory: nothing from the caller's environment leaks in. */
function appEnvironment(dataDir) {
    const env = { ...process.env };
    for (const name of APP_VARIABLES)
        delete env[name];
    return { ...env, NODE_ENV: 'production', PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, RATE_LIMIT_PER_MINUTE: '1000000000', LOG_LEVEL: 'warn' };
}
function progress(message) {
    process.stderr.write(`bench: ${new Date().toISOString().slice(11, 19)} ${message}\n`);
}
async function main() {
    const options = (0, analytics_options_1.parseAnalyticsOptions)(process.argv.slice(2));
    const cleanups = new cleanups_1.Cleanups();
    const interrupted = (signal) => {
        progress(`${signal}: cleaning up`);
        void cleanups.runAll().finally(() => process.exit(130));
    };
    process.once('SIGINT', interrupted).once('SIGTERM', interrupted);
    try {
        const report = await run(options, cleanups);
        process.stdout.write(options.json ? `${JSON.stringify({ options, ...report }, null, 2)}\n` : (0, analytics_report_1.formatAnalyticsReport)(report, options));
    }
    finally {
        await cleanups.runAll();
        process.off('SIGINT', interrupted).off('SIGTERM', interrupted);
    }
}
main().then(() => exitSoon(0), (error) => {
    process.stderr.write(`bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    exitSoon(1);
});
/** Everything is closed by now; this only guards against a handle some library left open. */
function exitSoon(code) {
    process.exitCode = code;
    setTimeout(() => {
        progress('a handle was still open 5 s after the end; exiting');
        process.exit(code);
    }, 5000).unref();
}
//# sourceMappingURL=analytics.bench.js.map