"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
const node_crypto_1 = require("node:crypto");
const node_fs_1 = require("node:fs");
const node_os_1 = require("node:os");
const node_path_1 = require("node:path");
const event_store_bench_1 = require("./event-store.bench");
const bench_options_1 = require("./support/bench-options");
const child_messages_1 = require("./support/child-messages");
const cleanups_1 = require("./support/cleanups");
const http_load_1 = require("./support/http-load");
const machine_1 = require("./support/machine");
const probe_1 = require("./support/probe");
const report_1 = require("./support/report");
const server_child_1 = require("./support/server-child");
/*
 * The API's cost over a bare Fastify HTTPS server, measured in one run on one machine: the real
 * app (PostgreSQL event store, Redis read models, auth, rate limit, usage counter) and a bare
 * server each run in a child process and get the same autocannon load, alternately; then the
 * PostgreSQL event store's append rate. Throwaway schema and Redis namespace, removed at the end.
 */
const LOG_LEVEL = 'warn';
const UNLIMITED_PER_MINUTE = '1000000000';
const APP_VARIABLES = ['ADMIN_API_KEY', 'APP_ENV', 'CLICKHOUSE_URL', 'TLS_MODE', 'TLS_CERT_FILE', 'TLS_KEY_FILE', 'PORT', 'HOST'];
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
    const path = fillPath(options.path, app.ready.ids);
    const appTarget = {
        url: `https://127.0.0.1:${app.ready.port}${path}`,
        ca: app.ready.cert,
        headers: { authorization: `Bearer ${options.key === 'admin' ? app.ready.adminKey : app.ready.accountKey}` },
        cpuMicros: app.cpuMicros,
    };
    const body = await (0, probe_1.getUntilOk)(appTarget.url, appTarget.ca, appTarget.headers);
    const spec = { cert: app.ready.cert, key: app.ready.key, route: options.path.replace(/\{(\w+)\}/g, ':$1'), body };
    const bare = await (0, server_child_1.startServerChild)((0, node_path_1.join)(__dirname, 'support', 'bare-server.js'), cleanups, {
        env: { ...process.env, NODE_ENV: 'production', [child_messages_1.BARE_SPEC_ENV]: JSON.stringify(spec) },
    });
    const bareTarget = { url: `https://127.0.0.1:${bare.ready.port}${path}`, ca: app.ready.cert, headers: appTarget.headers, cpuMicros: bare.cpuMicros };
    const bareBody = await (0, probe_1.getUntilOk)(bareTarget.url, bareTarget.ca, {});
    if (Buffer.byteLength(bareBody) !== Buffer.byteLength(body))
        throw new Error(`bare body is ${Buffer.byteLength(bareBody)} B, the app's ${Buffer.byteLength(body)} B`);
    const settings = { connections: options.connections, seconds: options.seconds, warmupSeconds: options.warmupSeconds };
    const bareRuns = [];
    const appRuns = [];
    for (let round = 1; round <= options.rounds; round++) {
        bareRuns.push(await (0, http_load_1.measure)(bareTarget, settings));
        progress(`round ${round}/${options.rounds}: bare ${bareRuns.at(-1)?.requestsPerSecond.toFixed(0)} requests/s`);
        appRuns.push(await (0, http_load_1.measure)(appTarget, settings));
        progress(`round ${round}/${options.rounds}: app  ${appRuns.at(-1)?.requestsPerSecond.toFixed(0)} requests/s`);
    }
    // Both servers stop before the event-store bench, which then has the machine to itself.
    await Promise.all([bare.stop(), app.stop()]);
    let eventStore = null;
    if (options.eventStore) {
        progress(`event store: ${options.eventStore.writers} writers for ${options.eventStore.seconds} s`);
        const figures = await (0, event_store_bench_1.benchEventStoreAppends)({ url: options.databaseUrl, ...options.eventStore });
        eventStore = { ...figures, ...options.eventStore };
    }
    const [bareMedian, appMedian] = [(0, http_load_1.medianOf)(bareRuns), (0, http_load_1.medianOf)(appRuns)];
    return {
        machine,
        settings: { path: options.path, key: options.key, ...settings, rounds: options.rounds, logLevel: LOG_LEVEL, bodyBytes: Buffer.byteLength(body) },
        bare: { median: bareMedian, runs: bareRuns },
        app: { median: appMedian, runs: appRuns },
        ratio: appMedian.requestsPerSecond / bareMedian.requestsPerSecond,
        ratioTarget: report_1.RATIO_TARGET,
        eventStore,
    };
}
function fillPath(template, ids) {
    return template.replace(/\{(\w+)\}/g, (_, name) => {
        const id = ids[name];
        if (id === undefined)
            throw new Error(`--path: no {${name}} provisioned (known: ${Object.keys(ids).join(', ')}); add it in bench/support/app-server.ts`);
        return encodeURIComponent(id);
    });
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
        RATE_LIMIT_PER_MINUTE: UNLIMITED_PER_MINUTE,
        LOG_LEVEL,
    };
}
function progress(message) {
    process.stderr.write(`bench: ${message}\n`);
}
async function main() {
    const options = (0, bench_options_1.parseBenchOptions)(process.argv.slice(2));
    const cleanups = new cleanups_1.Cleanups();
    const interrupted = (signal) => {
        progress(`${signal}: cleaning up`);
        void cleanups.runAll().finally(() => process.exit(130));
    };
    process.once('SIGINT', interrupted).once('SIGTERM', interrupted);
    try {
        const report = await run(options, cleanups);
        process.stdout.write(options.json ? `${JSON.stringify(report, null, 2)}\n` : (0, report_1.formatReport)(report));
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
//# sourceMappingURL=api.bench.js.map