import { randomUUID } from 'node:crypto';
import { createClickHouse } from '../../src/infrastructure/clickhouse/clickhouse.factory';
import { toJsonEachRow } from '../../src/infrastructure/clickhouse/clickhouse.format';
import type { ClickHouseExecutor } from '../../src/infrastructure/clickhouse/clickhouse.port';
import { recordsOf } from '../lib/call-records';
import { failStartup } from '../lib/child-control';
import { treeCpuMicros } from '../lib/process-tree';
import { DIRECT_SPEC_ENV, type DirectInsertResult, type DirectInsertSpec } from './ingest-messages';
import { RowBuilder } from './ingest-records';

/*
 * The baseline (forked by ingest.bench.ts, alone on the machine): the same records, as the same
 * rows, inserted through the same EmbeddedClickHouse class into a fresh data dir with the same
 * migrations, in INSERTs of the app's mean size. The rows are written as JSONEachRow text before
 * the clock starts and handed over with insertJsonEachRow and a deduplication token, as the app's
 * writer does; only the INSERT calls are timed, so this is the engine's own rate (with the
 * hand-over to its process).
 */
async function main(): Promise<DirectInsertResult> {
  const spec = JSON.parse(process.env[DIRECT_SPEC_ENV] ?? 'null') as DirectInsertSpec | null;
  if (!spec) throw new Error(`${DIRECT_SPEC_ENV} is not set`);
  const clickhouse = await createClickHouse({ url: null, dataDir: spec.dataDir });
  try {
    const builder = new RowBuilder(spec.records);
    await insertRange(clickhouse, builder, spec, spec.count, spec.warmupCount);
    const measured = await insertRange(clickhouse, builder, spec, 0, spec.count);
    const [{ version }] = await clickhouse.query<{ version: string }>('SELECT version() AS version');
    return { type: 'result', ...measured, records: spec.count, engineVersion: version };
  } finally {
    await clickhouse.close();
  }
}

async function insertRange(
  clickhouse: ClickHouseExecutor,
  builder: RowBuilder,
  spec: DirectInsertSpec,
  start: number,
  count: number,
) {
  let ms = 0;
  let cpuMicros = 0;
  let inserts = 0;
  for (let offset = 0; offset < count; offset += spec.batchRows) {
    const rows = builder.rows(recordsOf(spec.records, start + offset, Math.min(spec.batchRows, count - offset)));
    const text = toJsonEachRow(rows);
    // A token of its own per INSERT, as the app's writer sends (the engine then skips hashing the block).
    const deduplicationToken = randomUUID();
    const cpu = treeCpuMicros(process.pid) ?? 0;
    const started = performance.now();
    await clickhouse.insertJsonEachRow('call_records', text, { deduplicationToken });
    ms += performance.now() - started;
    cpuMicros += (treeCpuMicros(process.pid) ?? 0) - cpu;
    inserts += 1;
  }
  return { seconds: ms / 1000, cpuMicros, inserts };
}

main().then(
  (result) => (process.send ? process.send(result, () => process.exit(0)) : process.exit(0)),
  (error: unknown) => failStartup(error),
);
