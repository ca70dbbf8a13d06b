"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
const node_crypto_1 = require("node:crypto");
const node_fs_1 = require("node:fs");
const node_os_1 = require("node:os");
const node_path_1 = require("node:path");
const child_messages_1 = require("./support/child-messages");
const cleanups_1 = require("./support/cleanups");
const http_load_1 = require("./support/http-load");
const machine_1 = require("./support/machine");
const probe_1 = require("./support/probe");
const server_child_1 = require("./support/server-child");
const trunks_account_1 = require("./support/trunks-account");
const trunks_options_1 = require("./support/trunks-options");
const trunks_report_1 = require("./support/trunks-report");
const trunks_requests_1 = require("./support/trunks-requests");
const trunks_write_load_1 = require("./support/trunks-write-load");
/*
 * The trunk API under load, on the PostgreSQL event store with Redis read models: POST and
 * PATCH with concurrent clients, then the trunk list of a 10,000-trunk account against the
 * platform bench's bare Fastify HTTPS server serving the same bytes, measured in the same run.
 * The app runs in a child process (bench/support/app-server.ts) in a throwaway schema and Redis
 * namespace, both removed at the end, whatever happened.
 */
const LOG_LEVEL = 'warn';
const UNLIMITED_PER_MINUTE = '1000000000';
const LIST_PATH = '/v1/trunks?limit=100';
const APP_VARIABLES = ['ADMIN_API_KEY', 'APP_ENV', 'CLICKHOUSE_URL', 'TLS_MODE', 'TLS_CERT_FILE', 'TLS_KEY_FILE', 'PORT', 'HOST', 'CONSISTENCY_TIMEOUT_MS'];
async function run(options, cleanups) {
    const suffix = (0, node_crypto_1.randomBytes)(6).toString('hex');
    const schema = `bench_${suffix}`;
    const namespace = `bench:${suffix}:`;
    const dataDir = (0, node_fs_1.mkdtempSync)((0, node_path_1.join)((0, node_os_1.tmpdir)(), 'trunkline-bench-'));
    // Registered first, so they run last: after the children that use them have stopped.
    cleanups.add('remove data dir', async () => (0, node_fs_1.rmSync)(dataDir, { recursive: true, force: true }));
    cleanups.add(`drop schema ${schema}`, () => (0, cleanups_1.dropSchema)(options.databaseUrl, schema));
    cleanups.add(`delete Redis namespace ${namespace}`, async () => void (await (0, cleanups_1.deleteRedisNamespace)(options.redisUrl, namespace)));
    const machine = await (0, machine_1.describeMachine)(options.databaseUrl, options.redisUrl);
    const app = await (0, server_child_1.startServerChild)((0, node_path_1.join)(__dirname, 'support', 'app-server.js'), cleanups, {
        env: appEnvironment(options, { dataDir, schema, namespace }),
        execArgv: options.cpuProf ? ['--cpu-prof', `--cpu-prof-dir=${(0, node_path_1.join)(process.cwd(), 'bench-profiles')}`] : [],
    });
    const origin = `https://127.0.0.1:${app.ready.port}`;
    const appTarget = (path) => ({ url: `${origin}${path}`, ca: app.ready.cert, headers: { authorization: `Bearer ${app.ready.accountKey}` }, cpuMicros: app.cpuMicros });
    // The key reaches the Redis read model through the projections a moment after it is issued.
    await (0, probe_1.getUntilOk)(appTarget(LIST_PATH).url, app.ready.cert, appTarget(LIST_PATH).headers);
    const writes = await measureWriteRuns(appTarget(''), options, suffix);
    progress(`creating trunks up to ${options.trunks} with ${options.seedConnections} concurrent POSTs`);
    const seed = await (0, trunks_account_1.fillAccount)(appTarget(''), writes.creates, options.trunks, options.seedConnections);
    progress(`created ${seed.created} trunks in ${seed.seconds.toFixed(1)} s`);
    const list = await measureList(appTarget(LIST_PATH), app.ready, options, cleanups);
    await app.stop();
    return {
        machine: { ...machine, loadAverageAtEnd: Math.round((0, node_os_1.loadavg)()[0] * 100) / 100 },
        settings: {
            writers: options.writers, seconds: options.seconds, warmupSeconds: options.warmupSeconds, patchTrunks: writes.patchTrunks, trunks: options.trunks,
            seedConnections: options.seedConnections, connections: options.connections, rounds: options.rounds, logLevel: LOG_LEVEL, listPath: LIST_PATH, listBodyBytes: list.bodyBytes,
        },
        post: writes.post,
        patch: writes.patch,
        seed,
        list: { bare: list.bare, app: list.app, ratio: list.app.median.requestsPerSecond / list.bare.median.requestsPerSecond },
    };
}
/** POST, then PATCH over the newest trunks (created first if the POST run made too few). */
async function measureWriteRuns(target, options, suffix) {
    const settings = { connections: options.writers, seconds: options.seconds, warmupSeconds: options.warmupSeconds };
    progress(`POST /v1/trunks: ${options.writers} clients, ${options.warmupSeconds} s warm-up + ${options.seconds} s`);
    const creates = (0, trunks_requests_1.createTrunkRequests)(suffix);
    const post = await (0, trunks_write_load_1.measureWrites)(target, creates, settings);
    progress(`POST: ${post.requestsPerSecond.toFixed(0)} requests/s`);
    await (0, trunks_account_1.fillAccount)(target, creates, options.patchTrunks, options.writers);
    const ids = await (0, trunks_account_1.newestTrunkIds)(target, options.patchTrunks);
    progress(`PATCH /v1/trunks/{id}: ${options.writers} clients over ${ids.length} trunks`);
    const patch = await (0, trunks_write_load_1.measureWrites)(target, (0, trunks_requests_1.updateTrunkRequests)(ids), settings);
    progress(`PATCH: ${patch.requestsPerSecond.toFixed(0)} requests/s`);
    return { creates, post, patch, patchTrunks: ids.length };
}
/** The harness's bare server serving the app's own list page; alternating rounds, as api.bench.ts does. */
async function measureList(appTarget, tls, options, cleanups) {
    const body = await (0, probe_1.getUntilOk)(appTarget.url, appTarget.ca, appTarget.headers);
    const spec = { cert: tls.cert, key: tls.key, route: new URL(appTarget.url).pathname, body };
    const bare = await (0, server_child_1.startServerChild)((0, node_path_1.join)(__dirname, 'support', 'bare-server.js'), cleanups, {
        env: { ...process.env, NODE_ENV: 'production', [child_messages_1.BARE_SPEC_ENV]: JSON.stringify(spec) },
    });
    const bareUrl = new URL(appTarget.url);
    bareUrl.port = String(bare.ready.port);
    const bareTarget = { url: bareUrl.href, ca: tls.cert, headers: appTarget.headers, cpuMicros: bare.cpuMicros };
    const bareBody = await (0, probe_1.getUntilOk)(bareTarget.url, bareTarget.ca, {});
    if (Buffer.byteLength(bareBody) !== Buffer.byteLength(body))
        throw new Error(`bare body is ${Buffer.byteLength(bareBody)} B, the app's ${Buffer.byteLength(body)} B`);
    const settings = { connections: options.connections, seconds: options.seconds, warmupSeconds: options.warmupSeconds };
    const bareRuns = [];
    const appRuns = [];
    for (let round = 1; round <= options.rounds; round++) {
        bareRuns.push(await (0, http_load_1.measure)(bareTarget, settings));
        progress(`GET round ${round}/${options.rounds}: bare ${bareRuns.at(-1)?.requestsPerSecond.toFixed(0)} requests/s`);
        appRuns.push(await (0, http_load_1.measure)(appTarget, settings));
        progress(`GET round ${round}/${options.rounds}: app  ${appRuns.at(-1)?.requestsPerSecond.toFixed(0)} requests/s`);
    }
    await bare.stop();
    return { bodyBytes: Buffer.byteLength(body), bare: { median: (0, http_load_1.medianOf)(bareRuns), runs: bareRuns }, app: { median: (0, http_load_1.medianOf)(appRuns), runs: appRuns } };
}
function appEnvironment(options, store) {
    const env = { ...process.env };
    for (const name of APP_VARIABLES)
        delete env[name];
    return {
        ...env,
        NODE_ENV: 'production',
        PORT: '0',
        HOST: '127.0.0.1',
        DATA_DIR: store.dataDir,
        EVENT_STORE_URL: options.databaseUrl,
        EVENT_STORE_SCHEMA: store.schema,
        REDIS_URL: options.redisUrl,
        REDIS_NAMESPACE: store.namespace,
        MASTER_KEY: (0, node_crypto_1.randomBytes)(32).toString('base64'),
        PROVIDER_VALIDATION: 'format',
        RATE_LIMIT_PER_MINUTE: UNLIMITED_PER_MINUTE,
        LOG_LEVEL,
    };
}
function progress(message) {
    process.stderr.write(`bench: ${message}\n`);
}
async function main() {
    const options = (0, trunks_options_1.parseTrunksBenchOptions)(process.argv.slice(2));
    const cleanups = new cleanups_1.Cleanups();
    const interrupted = (signal) => {
        progress(`${signal}: cleaning up`);
        void cleanups.runAll().finally(() => process.exit(130));
    };
    process.once('SIGINT', interrupted).once('SIGTERM', interrupted);
    try {
        const report = await run(options, cleanups);
        process.stdout.write(options.json ? `${JSON.stringify(report, null, 2)}\n` : (0, trunks_report_1.formatTrunksReport)(report));
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
//# sourceMappingURL=trunks.bench.js.map