"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
const node_crypto_1 = require("node:crypto");
const node_fs_1 = require("node:fs");
const node_os_1 = require("node:os");
const node_path_1 = require("node:path");
const call_generator_1 = require("../src/tools/call-generator");
const cleanups_1 = require("./support/cleanups");
const ingest_job_1 = require("./support/ingest-job");
const ingest_messages_1 = require("./support/ingest-messages");
const ingest_options_1 = require("./support/ingest-options");
const ingest_process_tree_1 = require("./support/ingest-process-tree");
const ingest_records_1 = require("./support/ingest-records");
const ingest_report_1 = require("./support/ingest-report");
const ingest_senders_1 = require("./support/ingest-senders");
const server_child_1 = require("./support/server-child");
/*
 * Call-record ingestion against its own floor, in one run on one machine: the real app (child
 * process, embedded chDB) takes N generated records as NDJSON over HTTPS from concurrent senders;
 * then a second child inserts the same records, as the same rows, straight into a fresh chDB
 * through the same executor. Temp data dirs and children are removed at the end, whatever happens.
 */
const LOG_LEVEL = 'warn';
const DAYS = 30;
const HOUR_MS = 3_600_000;
const CLEARED_VARIABLES = ['ADMIN_API_KEY', 'APP_ENV', 'EVENT_STORE_URL', 'EVENT_STORE_SCHEMA', 'CLICKHOUSE_URL', 'REDIS_URL', 'REDIS_NAMESPACE', 'TLS_MODE', 'TLS_CERT_FILE', 'TLS_KEY_FILE', 'PORT', 'HOST'];
async function run(options, cleanups) {
    const machine = (0, ingest_report_1.describeIngestMachine)();
    const appDir = tempDir(cleanups);
    const statsFile = (0, node_path_1.join)(appDir, 'bench-ingest-stats.json');
    const execArgv = options.cpuProfDir ? ['--cpu-prof', `--cpu-prof-dir=${options.cpuProfDir}`] : [];
    const app = await (0, server_child_1.startServerChild)((0, node_path_1.join)(__dirname, 'support', 'ingest-app-server.js'), cleanups, {
        env: appEnvironment(appDir, statsFile, options.trunks),
        execArgv,
    });
    const appMemory = new ingest_process_tree_1.TreeRss(app.ready.pid);
    const toMs = Math.floor(Date.now() / HOUR_MS) * HOUR_MS;
    const records = { seed: options.seed, fromMs: toMs - DAYS * 24 * HOUR_MS, toMs, trunks: app.ready.trunks, accountId: app.ready.accountId };
    progress(`generating ${options.records} + ${options.warmupRecords} warm-up records`);
    const warmup = bodiesOf(records, options.records, options.warmupRecords, options.batchSize);
    let measured = bodiesOf(records, 0, options.records, options.batchSize);
    const meanRecordBytes = measured.reduce((sum, b) => sum + b.body.length, 0) / options.records;
    const target = { origin: `https://127.0.0.1:${app.ready.port}`, ca: app.ready.cert, key: app.ready.ingestKey };
    if (warmup.length > 0)
        await (0, ingest_senders_1.sendAll)(target, warmup, options.senders);
    progress(`sending ${options.records} records in ${measured.length} requests, ${options.senders} senders`);
    const cpuBefore = (0, ingest_process_tree_1.treeCpuMicros)(app.ready.pid);
    const sent = await (0, ingest_senders_1.sendAll)(target, measured, options.senders);
    const cpuAfter = (0, ingest_process_tree_1.treeCpuMicros)(app.ready.pid);
    const appRss = appMemory.stop();
    await app.stop();
    measured = null;
    const stats = JSON.parse((0, node_fs_1.readFileSync)(statsFile, 'utf8'));
    const rowsPerInsert = Math.max(1, Math.round(stats.inserts.rows / Math.max(1, stats.inserts.calls)));
    progress(`direct insert of the same records, ${rowsPerInsert} rows per INSERT`);
    const spec = { dataDir: tempDir(cleanups), records, count: options.records, warmupCount: options.warmupRecords, batchRows: rowsPerInsert };
    const job = (0, ingest_job_1.runJobChild)((0, node_path_1.join)(__dirname, 'support', 'ingest-direct-insert.js'), cleanups, {
        env: { ...process.env, NODE_ENV: 'production', [ingest_messages_1.DIRECT_SPEC_ENV]: JSON.stringify(spec) },
        execArgv,
    });
    const directMemory = new ingest_process_tree_1.TreeRss(job.pid);
    const direct = await job.result;
    const directRss = directMemory.stop();
    const appRate = sent.records / sent.seconds;
    const directRate = direct.records / direct.seconds;
    return {
        machine: { ...machine, engine: direct.engineVersion },
        settings: {
            records: options.records, batchSize: options.batchSize, senders: options.senders, trunks: options.trunks, seed: options.seed, days: DAYS,
            warmupRecords: options.warmupRecords, meanRecordBytes, logLevel: LOG_LEVEL,
        },
        app: {
            recordsPerSecond: appRate, seconds: sent.seconds, requests: sent.requests, retries: sent.retries, p50Ms: sent.p50Ms, p99Ms: sent.p99Ms,
            cpuMicrosPerRecord: cpuBefore === null || cpuAfter === null ? null : (cpuAfter - cpuBefore) / sent.records, memory: appRss,
            inserts: stats.inserts, lookups: stats.lookups,
        },
        direct: {
            recordsPerSecond: directRate, seconds: direct.seconds, inserts: direct.inserts, rowsPerInsert,
            cpuMicrosPerRecord: directRss ? direct.cpuMicros / direct.records : null, memory: directRss,
        },
        ratio: appRate / directRate,
        ratioTarget: ingest_report_1.RATIO_TARGET,
        recordsPerSecondTarget: ingest_report_1.RECORDS_PER_SECOND_TARGET,
    };
}
/** Request bodies as Buffers, built before the clock starts so the senders only send. */
function bodiesOf(spec, start, count, batchSize) {
    const bodies = [];
    for (const batch of (0, call_generator_1.ndjsonBatches)((0, ingest_records_1.recordsOf)(spec, start, count), batchSize))
        bodies.push({ body: Buffer.from(batch.body), count: batch.count });
    return bodies;
}
function tempDir(cleanups) {
    const dir = (0, node_fs_1.mkdtempSync)((0, node_path_1.join)((0, node_os_1.tmpdir)(), 'trunkline-bench-ingest-'));
    cleanups.add(`remove ${dir}`, async () => (0, node_fs_1.rmSync)(dir, { recursive: true, force: true }));
    return dir;
}
function appEnvironment(dataDir, statsFile, trunks) {
    const env = { ...process.env };
    for (const name of CLEARED_VARIABLES)
        delete env[name];
    return {
        ...env,
        NODE_ENV: 'production',
        PORT: '0',
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        MASTER_KEY: (0, node_crypto_1.randomBytes)(32).toString('base64'),
        PROVIDER_VALIDATION: 'format',
        RATE_LIMIT_PER_MINUTE: '1000000000',
        LOG_LEVEL,
        [ingest_messages_1.STATS_FILE_ENV]: statsFile,
        [ingest_messages_1.TRUNKS_ENV]: String(trunks),
    };
}
function progress(message) {
    process.stderr.write(`bench: ${message}\n`);
}
async function main() {
    const options = (0, ingest_options_1.parseIngestOptions)(process.argv.slice(2));
    const cleanups = new cleanups_1.Cleanups();
    const interrupted = (signal) => {
        progress(`${signal}: cleaning up`);
        void cleanups.runAll().finally(() => process.exit(130));
    };
    process.once('SIGINT', interrupted).once('SIGTERM', interrupted);
    try {
        const report = await run(options, cleanups);
        process.stdout.write(options.json ? `${JSON.stringify(report, null, 2)}\n` : (0, ingest_report_1.formatIngestReport)(report));
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
//# sourceMappingURL=ingest.bench.js.map