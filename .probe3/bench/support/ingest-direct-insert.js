"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
const clickhouse_factory_1 = require("../../src/infrastructure/clickhouse/clickhouse.factory");
const child_control_1 = require("./child-control");
const ingest_process_tree_1 = require("./ingest-process-tree");
const ingest_messages_1 = require("./ingest-messages");
const ingest_records_1 = require("./ingest-records");
/*
 * The baseline (forked by ingest.bench.ts, alone on the machine): the same records, as the same
 * rows, inserted through the same EmbeddedClickHouse class (JSONEachRow to a chDB worker thread)
 * into a fresh data dir with the same migrations, in INSERTs of the app's mean size. Only the
 * INSERT calls are timed; building the rows is not, so this is the engine's own rate.
 */
async function main() {
    const spec = JSON.parse(process.env[ingest_messages_1.DIRECT_SPEC_ENV] ?? 'null');
    if (!spec)
        throw new Error(`${ingest_messages_1.DIRECT_SPEC_ENV} is not set`);
    const clickhouse = await (0, clickhouse_factory_1.createClickHouse)({ url: null, dataDir: spec.dataDir });
    try {
        const builder = new ingest_records_1.RowBuilder(spec.records);
        await insertRange(clickhouse, builder, spec, spec.count, spec.warmupCount);
        const measured = await insertRange(clickhouse, builder, spec, 0, spec.count);
        const [{ version }] = await clickhouse.query('SELECT version() AS version');
        return { type: 'result', ...measured, records: spec.count, engineVersion: version };
    }
    finally {
        await clickhouse.close();
    }
}
async function insertRange(clickhouse, builder, spec, start, count) {
    let ms = 0;
    let cpuMicros = 0;
    let inserts = 0;
    for (let offset = 0; offset < count; offset += spec.batchRows) {
        const rows = builder.rows((0, ingest_records_1.recordsOf)(spec.records, start + offset, Math.min(spec.batchRows, count - offset)));
        const cpu = (0, ingest_process_tree_1.treeCpuMicros)(process.pid) ?? 0;
        const started = performance.now();
        await clickhouse.insert('call_records', rows);
        ms += performance.now() - started;
        cpuMicros += ((0, ingest_process_tree_1.treeCpuMicros)(process.pid) ?? 0) - cpu;
        inserts += 1;
    }
    return { seconds: ms / 1000, cpuMicros, inserts };
}
main().then((result) => (process.send ? process.send(result, () => process.exit(0)) : process.exit(0)), (error) => (0, child_control_1.failStartup)(error));
//# sourceMappingURL=ingest-direct-insert.js.map