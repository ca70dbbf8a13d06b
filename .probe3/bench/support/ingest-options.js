"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.parseIngestOptions = parseIngestOptions;
const node_util_1 = require("node:util");
const USAGE = `usage: node dist/bench/ingest.bench.js [options]
  --records N   measured records (200000)
  --batch N     records per request (1000)
  --senders N   concurrent HTTPS senders (4)
  --trunks N    trunks the records spread over (10)
  --seed N      generator seed (20240501)
  --warmup N    records sent first and not counted, in both app and baseline (10000; 0 for none)
  --cpu-prof    write V8 CPU profiles of the app and baseline children to ./bench-profiles/
  --json        print machine-readable JSON instead of the table`;
function parseIngestOptions(argv) {
    const { values } = (0, node_util_1.parseArgs)({
        args: argv,
        options: {
            records: { type: 'string' }, batch: { type: 'string' }, senders: { type: 'string' }, trunks: { type: 'string' }, seed: { type: 'string' },
            warmup: { type: 'string' }, 'cpu-prof': { type: 'boolean' }, json: { type: 'boolean' }, help: { type: 'boolean' },
        },
    });
    if (values.help) {
        process.stdout.write(`${USAGE}\n`);
        process.exit(0);
    }
    const batchSize = integer('batch', values.batch, 1000, 1);
    if (batchSize > 10_000)
        throw new Error('--batch must be at most 10000 (the ingestion limit per request)');
    return {
        records: integer('records', values.records, 200_000, 1),
        batchSize,
        senders: integer('senders', values.senders, 4, 1),
        trunks: integer('trunks', values.trunks, 10, 1),
        seed: integer('seed', values.seed, 20240501, 0),
        warmupRecords: integer('warmup', values.warmup, 10_000, 0),
        json: values.json ?? false,
        cpuProfDir: values['cpu-prof'] ? `${process.cwd()}/bench-profiles` : null,
    };
}
function integer(name, raw, fallback, min) {
    if (raw === undefined)
        return fallback;
    const value = Number(raw);
    if (!Number.isSafeInteger(value) || value < min)
        throw new Error(`--${name} must be an integer >= ${min}`);
    return value;
}
//# sourceMappingURL=ingest-options.js.map