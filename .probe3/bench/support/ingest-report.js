"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.RECORDS_PER_SECOND_TARGET = exports.RATIO_TARGET = void 0;
exports.describeIngestMachine = describeIngestMachine;
exports.formatIngestReport = formatIngestReport;
const node_os_1 = require("node:os");
exports.RATIO_TARGET = 0.5;
exports.RECORDS_PER_SECOND_TARGET = 50_000;
function describeIngestMachine() {
    return {
        cpu: (0, node_os_1.cpus)()[0]?.model.trim() ?? 'unknown',
        cores: (0, node_os_1.cpus)().length,
        memoryGiB: Math.round(((0, node_os_1.totalmem)() / 2 ** 30) * 10) / 10,
        node: process.version,
        chdb: chdbVersion(),
        loadAverage: Math.round((0, node_os_1.loadavg)()[0] * 100) / 100,
    };
}
function chdbVersion() {
    try {
        return require('chdb/package.json').version;
    }
    catch {
        return 'unknown';
    }
}
function formatIngestReport(r) {
    const { machine: m, settings: s, app, direct } = r;
    const rows = [
        ['what', 'records/s', 'seconds', 'CPU µs/record', 'peak RSS MiB'],
        [`direct chDB insert (EmbeddedClickHouse.insert, ${direct.rowsPerInsert} rows per INSERT)`, ...cells(direct.recordsPerSecond, direct.seconds, direct.cpuMicrosPerRecord, direct.memory)],
        [`Trunkline app, POST /v1/ingest/calls over HTTPS (${s.senders} senders)`, ...cells(app.recordsPerSecond, app.seconds, app.cpuMicrosPerRecord, app.memory)],
    ];
    const widths = rows[0].map((_, i) => Math.max(...rows.map((row) => row[i].length)));
    const line = (row) => row.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join('  ');
    const verdict = (ok) => (ok ? 'meets target' : 'BELOW target');
    const share = (t) => `${(t.ms / 1000).toFixed(2)} s`;
    const out = [
        `machine: ${m.cpu}, ${m.cores} cores, ${m.memoryGiB} GiB, node ${m.node}; chdb ${m.chdb} (ClickHouse ${m.engine}); load average ${m.loadAverage} at start`,
        `load: ${fmt(s.records)} records (${fmt(s.meanRecordBytes)} B of NDJSON each on average, ${s.trunks} trunks, last ${s.days} days, seed ${s.seed}) in bodies of ${fmt(s.batchSize)},` +
            ` ${s.senders} concurrent senders (undici, keep-alive, HTTPS); ${fmt(s.warmupRecords)} warm-up records first in both, not counted`,
        `app: child process, embedded chDB + PGlite in a temp DATA_DIR, in-memory read models, LOG_LEVEL=${s.logLevel}; baseline: child process, same records and rows, fresh chDB, same migrations`,
        '',
        line(rows[0]),
        line(widths.map((w) => '-'.repeat(w))),
        line(rows[1]),
        line(rows[2]),
        '',
        `ratio app/direct: ${r.ratio.toFixed(2)} (target >= ${r.ratioTarget.toFixed(2)}: ${verdict(r.ratio >= r.ratioTarget)})`,
        `app records/s: ${fmt(app.recordsPerSecond)} (target >= ${fmt(r.recordsPerSecondTarget)}: ${verdict(app.recordsPerSecond >= r.recordsPerSecondTarget)})`,
        app.memory
            ? `app peak RSS: ${mib(app.memory.peakBytes)} MiB, app and chDB processes summed every 100 ms (${mib(app.memory.firstBytes)} MiB idle before the load;` +
                ` high-water marks: ${app.memory.processes.map((p) => `${p.name} ${mib(p.peakBytes)} MiB`).join(', ')})`
            : 'app peak RSS: not measured (needs /proc)',
        `app requests: ${app.requests}, ${app.retries} retried after 503; latency p50 ${app.p50Ms.toFixed(0)} ms, p99 ${app.p99Ms.toFixed(0)} ms`,
        `app ClickHouse, warm-up included: ${app.inserts.calls} INSERTs of ${fmt(app.inserts.rows / Math.max(1, app.inserts.calls))} rows on average took ${share(app.inserts)};` +
            ` ${app.lookups.calls} previous-version lookups took ${share(app.lookups)} (${app.lookups.rows} previous versions found)`,
    ];
    return `${out.join('\n')}\n`;
}
function cells(recordsPerSecond, seconds, cpuMicros, memory) {
    return [fmt(recordsPerSecond), seconds.toFixed(2), cpuMicros === null ? 'n/a' : cpuMicros.toFixed(1), memory ? mib(memory.peakBytes) : 'n/a'];
}
const fmt = (n) => Math.round(n).toLocaleString('en-US');
const mib = (bytes) => (bytes / 2 ** 20).toFixed(0);
//# sourceMappingURL=ingest-report.js.map