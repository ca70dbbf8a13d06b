import { rowLine } from '../../src/calls/ingestion/call-record.line';
import { type EnrichedCallRecord, rowOf } from '../../src/calls/ingestion/call-record.row';
import { validateCallRecord } from '../../src/calls/ingestion/call-record.validation';
import { readCallLine } from '../../src/calls/ingestion/call-line.reader';
import { stringifyRow } from '../../src/infrastructure/clickhouse/clickhouse.format';
import { parseLine } from '../../src/platform/http/ndjson.parser';
import { recordsOf } from '../lib/call-records';

/*
 * The per-record work of ingestion in one process, without HTTP or the engine: an NDJSON line of
 * bench:ingest's records to its JSONEachRow row, the way the app does it now and the way it did
 * before issue 31.3 (parse the whole line, build the row object, JSON.stringify it). CPU time of
 * this process, the best of the rounds, alternating the two: on a shared machine the full bench's
 * records/s swing 2× between runs, while this A/B stays within a few percent.
 *   node dist/bench/ingest/ingest-pipeline.js [records=20000] [rounds=8]
 */
const [records = 20_000, rounds = 8] = process.argv.slice(2).map(Number);
const now = Date.now();
const spec = {
  seed: 20240501,
  fromMs: now - 30 * 86_400_000,
  toMs: now,
  trunks: [{ id: 'conn_pipeline', provider: 'openai' }],
  accountId: 'acct_pipeline',
};
const lines = [...recordsOf(spec, 0, records)].map((record) => Buffer.from(JSON.stringify(record)));

function enriched(value: unknown): EnrichedCallRecord {
  const verdict = validateCallRecord(value);
  if (!verdict.ok) throw new Error(`generated record is invalid: ${verdict.message}`);
  return { ...verdict.record, account_id: spec.accountId, provider: 'openai' };
}

const paths: Record<string, (line: Buffer) => Buffer> = {
  'parse → object → JSON.stringify (before)': (line) => {
    const json = stringifyRow(rowOf(enriched(parseLine(line).value), 1, new Date()));
    const row = Buffer.allocUnsafe(Buffer.byteLength(json) + 1);
    row.write(json);
    row[row.length - 1] = 0x0a;
    return row;
  },
  'sip_trace token + turns array (now)': (line) => {
    const read = readCallLine(line);
    const record = enriched(read.value);
    if (read.sipTrace) record.sip_trace = read.sipTrace;
    return rowLine(record, 1, new Date());
  },
};

const best = new Map<string, number>();
for (let round = 0; round < rounds; round++) {
  for (const [name, path] of Object.entries(paths)) {
    const started = process.cpuUsage();
    for (const line of lines) path(line);
    const used = process.cpuUsage(started);
    best.set(name, Math.min(best.get(name) ?? Infinity, (used.user + used.system) / lines.length));
  }
}
const bytes = lines.reduce((sum, line) => sum + line.length, 0) / lines.length;
console.log(`${records} records of ${bytes.toFixed(0)} B, CPU µs per record, best of ${rounds} rounds:`);
for (const [name, micros] of best) console.log(`  ${name}: ${micros.toFixed(1)}`);
const [before, after] = [...best.values()];
console.log(`  now/before: ${(after / before).toFixed(2)}`);
