"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.loadPostgres = loadPostgres;
exports.timePostgresOverview = timePostgresOverview;
const node_child_process_1 = require("node:child_process");
const pg_1 = require("pg");
const analytics_sql_1 = require("./analytics-sql");
const analytics_stats_1 = require("./analytics-stats");
/**
 * The same rows into a throwaway schema: psql's \copy streams the CSV file from this side
 * (server-side COPY could not read the bench's private temp dir), then the index the overview's
 * range filter can use, then VACUUM ANALYZE (statistics, visibility map).
 */
async function loadPostgres(url, schema, csvPath) {
    const client = new pg_1.Client({ connectionString: url });
    await client.connect();
    try {
        await client.query(`CREATE SCHEMA "${schema}"`);
        await client.query((0, analytics_sql_1.pgCreateTable)(schema));
        const copyStarted = performance.now();
        await psql(url, `\\copy "${schema}".call_records (${analytics_sql_1.PG_COLUMNS.join(', ')}) FROM '${csvPath.replace(/'/g, "''")}' WITH (FORMAT csv, NULL '\\N')`);
        const copyMs = performance.now() - copyStarted;
        const indexStarted = performance.now();
        await client.query((0, analytics_sql_1.pgCreateIndex)(schema));
        const indexMs = performance.now() - indexStarted;
        const analyzeStarted = performance.now();
        await client.query(`VACUUM ANALYZE "${schema}".call_records`);
        const analyzeMs = performance.now() - analyzeStarted;
        const { rows } = await client.query(`SELECT count(*) AS rows, pg_total_relation_size('"${schema}".call_records') AS bytes FROM "${schema}".call_records`);
        return { rows: Number(rows[0].rows), copyMs, indexMs, analyzeMs, tableBytes: Number(rows[0].bytes), settings: await settingsOf(client) };
    }
    finally {
        await client.end();
    }
}
async function settingsOf(client) {
    const names = ['server_version', 'shared_buffers', 'work_mem', 'max_parallel_workers_per_gather', 'jit'];
    const { rows } = await client.query('SELECT name, current_setting(name) AS setting FROM pg_settings WHERE name = ANY($1)', [names]);
    return Object.fromEntries(rows.map((r) => [r.name, r.setting]));
}
function psql(url, command) {
    return new Promise((resolve, reject) => {
        const child = (0, node_child_process_1.spawn)('psql', ['-X', '-q', '-v', 'ON_ERROR_STOP=1', '-d', url, '-c', command], { stdio: ['ignore', 'ignore', 'pipe'] });
        let stderr = '';
        child.stderr.on('data', (chunk) => (stderr += chunk.toString()));
        child.on('error', reject);
        child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`psql exited with ${code}: ${stderr.trim()}`))));
    });
}
/** The overview's three statements, one after another on one session, `runs` times. */
async function timePostgresOverview(r) {
    const client = new pg_1.Client({ connectionString: r.url });
    await client.connect();
    try {
        await client.query(`SET work_mem = '${r.workMem}'`);
        const params = [r.accountId, r.from, r.to];
        let headline = null;
        const samplesMs = await (0, analytics_stats_1.timeSequential)(r.warmup, r.runs, async () => {
            const totals = await client.query((0, analytics_sql_1.pgTotals)(r.schema), params);
            await client.query((0, analytics_sql_1.pgCodecs)(r.schema), params);
            const groups = await client.query((0, analytics_sql_1.pgGroups)(r.schema, r.hourly), params);
            const trunks = groups.rows.filter((g) => Number(g.all_trunks) === 0).length;
            const t = totals.rows[0];
            headline = { totalCalls: Number(t.calls), connectedCalls: Number(t.connected), p95: Number(t.p95), p99: Number(t.p99), trunks, buckets: groups.rows.length - trunks };
        });
        return { samplesMs, headline: headline };
    }
    finally {
        await client.end();
    }
}
//# sourceMappingURL=analytics-postgres.js.map