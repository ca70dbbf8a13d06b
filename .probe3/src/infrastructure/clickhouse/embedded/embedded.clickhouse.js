"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.EmbeddedClickHouse = void 0;
const promises_1 = require("node:fs/promises");
const node_child_process_1 = require("node:child_process");
const clickhouse_errors_1 = require("../clickhouse.errors");
const clickhouse_format_1 = require("../clickhouse.format");
const clickhouse_port_1 = require("../clickhouse.port");
const chdb_addon_1 = require("./chdb.addon");
const chdb_worker_entry_1 = require("./chdb-worker.entry");
/**
 * chDB in the data directory. chDB is one engine per process and its parameter binding is unsafe
 * under concurrent calls, so the engine lives in a child process of its own that runs one
 * statement at a time (chdb.worker.ts); this side only numbers the calls and matches the replies.
 * If the child dies, the calls it held fail as unavailable and the next call starts a new one.
 */
class EmbeddedClickHouse {
    init;
    entry;
    logger;
    kind = 'embedded';
    worker = null;
    starting = null;
    /** Resolves when the last failed worker has exited: its successor starts only then. */
    retired = Promise.resolve();
    pending = new Map();
    nextId = 1;
    closing = null;
    constructor(init, entry, logger) {
        this.init = init;
        this.entry = entry;
        this.logger = logger;
    }
    /** Starts the engine and waits until it answers, so a bad data directory fails here. */
    static async open(options) {
        (0, chdb_addon_1.checkChdbInstalled)();
        await (0, promises_1.mkdir)(options.dir, { recursive: true });
        const settings = { ...clickhouse_format_1.EXECUTOR_SETTINGS, max_execution_time: Math.ceil((options.timeoutMs ?? clickhouse_format_1.DEFAULT_TIMEOUT_MS) / 1000) };
        const args = Object.entries(settings).map(([name, value]) => `--${name}=${value}`);
        const entry = options.workerEntry ?? (0, chdb_worker_entry_1.resolveWorkerEntry)();
        const executor = new EmbeddedClickHouse({ path: options.dir, args }, entry, options.logger ?? clickhouse_port_1.silentClickHouseLogger);
        try {
            await executor.ping();
        }
        catch (error) {
            await executor.close();
            throw error;
        }
        return executor;
    }
    async command(sql, params) {
        await this.call({ op: 'command', sql, params: (0, clickhouse_format_1.bindParams)(params) });
    }
    async query(sql, params) {
        const text = await this.call({ op: 'query', sql, params: (0, clickhouse_format_1.bindParams)(params) });
        return (0, clickhouse_format_1.parseJsonEachRow)(text);
    }
    async insert(table, rows) {
        (0, clickhouse_format_1.checkTableName)(table);
        if (rows.length === 0)
            return;
        await this.call({ op: 'insert', table, data: (0, clickhouse_format_1.toJsonEachRow)(rows) });
    }
    async ping() {
        await this.call({ op: 'query', sql: 'SELECT 1', params: {} });
    }
    close() {
        this.closing ??= this.shutdown();
        return this.closing;
    }
    async shutdown() {
        const worker = this.worker ?? (await this.starting);
        if (!worker)
            return;
        // Queued behind every call already sent, so those finish first.
        await this.send(worker, { op: 'close' }).catch(() => undefined);
        if (worker.exitCode === null && worker.signalCode === null) {
            await new Promise((resolve) => {
                const timer = setTimeout(() => worker.kill('SIGKILL'), 5000);
                worker.once('exit', () => {
                    clearTimeout(timer);
                    resolve();
                });
            });
        }
    }
    async call(call) {
        if (this.closing)
            throw new clickhouse_port_1.ClickHouseUnavailableError('ClickHouse executor is closed');
        return this.send(this.worker ?? (await this.start()), call);
    }
    /** Calls waiting here resume in the order they came, so they reach the worker in that order. */
    start() {
        this.starting ??= this.retired.then(async () => {
            try {
                return await this.spawn();
            }
            finally {
                this.starting = null;
            }
        });
        return this.starting;
    }
    send(worker, call) {
        const id = this.nextId++;
        return new Promise((resolve, reject) => {
            this.pending.set(id, { resolve, reject });
            worker.send({ ...call, id }, (error) => {
                if (!error)
                    return;
                this.pending.delete(id);
                reject(new clickhouse_port_1.ClickHouseUnavailableError(`chDB process unreachable: ${error.message}`, error));
            });
        });
    }
    async spawn() {
        const worker = (0, node_child_process_1.fork)(this.entry.file, [], {
            execArgv: this.entry.execArgv ?? [],
            serialization: 'advanced',
            // Only what the engine needs: the parent's secrets (MASTER_KEY, …) stay in the parent.
            env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', TZ: 'UTC', TRUNKLINE_CHDB_INIT: JSON.stringify(this.init) },
            stdio: ['ignore', 'inherit', 'pipe', 'ipc'],
        });
        let stderr = '';
        worker.stderr?.on('data', (chunk) => {
            stderr = (stderr + chunk.toString()).slice(-2000);
            process.stderr.write(chunk);
        });
        const exited = new Promise((resolve) => worker.once('exit', () => resolve()));
        // Calls already sent to a failed worker are lost with it; later calls go to its successor.
        const retire = (error) => {
            if (this.worker === worker) {
                this.worker = null;
                this.retired = exited;
            }
            this.failAll(error);
        };
        const ready = new Promise((resolve, reject) => {
            worker.once('message', () => resolve());
            worker.once('exit', (code) => reject(new clickhouse_port_1.ClickHouseUnavailableError(`chDB process exited before it was ready (code ${code}): ${stderr.trim().split('\n').slice(-3).join(' | ')}`)));
        });
        worker.on('message', (reply) => this.settle(reply));
        worker.on('error', (error) => {
            this.logger.warn({ err: error, dir: this.init.path }, 'embedded ClickHouse: chDB worker failed');
            retire(new clickhouse_port_1.ClickHouseUnavailableError(`chDB worker failed: ${error.message}`, error));
        });
        worker.on('exit', (code) => retire(new clickhouse_port_1.ClickHouseUnavailableError(`chDB worker exited (code ${code})`)));
        await ready;
        this.worker = worker;
        return worker;
    }
    settle(reply) {
        const pending = this.pending.get(reply.id);
        if (!pending)
            return;
        this.pending.delete(reply.id);
        if (reply.ok)
            return pending.resolve(reply.text);
        const { message, clickhouseCode, unavailable } = reply.error;
        pending.reject(unavailable ? new clickhouse_port_1.ClickHouseUnavailableError(message, undefined, clickhouseCode) : (0, clickhouse_errors_1.fromClickHouseCode)(message, clickhouseCode, undefined));
    }
    failAll(error) {
        const calls = [...this.pending.values()];
        this.pending.clear();
        for (const call of calls)
            call.reject(error);
    }
}
exports.EmbeddedClickHouse = EmbeddedClickHouse;
//# sourceMappingURL=embedded.clickhouse.js.map