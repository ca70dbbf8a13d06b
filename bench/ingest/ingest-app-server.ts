import { CLICKHOUSE, type ClickHouseExecutor } from '../../src/infrastructure/clickhouse/clickhouse.port';
import { serveApp } from '../lib/serve-app';
import type { IngestAppStats, IngestOps, StatementTally } from './ingest-messages';

/*
 * The app child of ingest.bench.ts (embedded chDB and PGlite in the bench's temp DATA_DIR, read
 * models in memory), with its ClickHouse statements counted and timed: the bench asks for them
 * after the measured sends (each ingest request answers only once its rows are inserted).
 */
serveApp<object, IngestOps>((running) => {
  const stats: IngestAppStats = { inserts: tally(), lookups: tally() };
  instrument(running.app.get<symbol, ClickHouseExecutor>(CLICKHOUSE), stats);
  return { handlers: { 'ingest-stats': () => stats } };
});

/**
 * Times the writer's statements from outside: the writer holds this same executor object, so
 * wrapping its methods here sees its INSERTs of JSONEachRow text into call_records (projections
 * insert into other tables) and its previous-version lookups.
 */
function instrument(executor: ClickHouseExecutor, stats: IngestAppStats): void {
  const insert = executor.insertJsonEachRow.bind(executor);
  const query = executor.query.bind(executor);
  executor.insertJsonEachRow = async (table, text, options) => {
    const started = performance.now();
    await insert(table, text, options);
    if (table === 'call_records') add(stats.inserts, lineCount(text), started);
  };
  executor.query = async <T>(sql: string, params?: Parameters<ClickHouseExecutor['query']>[1]): Promise<T[]> => {
    const started = performance.now();
    const rows = await query<T>(sql, params);
    // Only the writer reads call_records during the bench: each such query is part of its lookup.
    if (/\bFROM call_records\b/.test(sql)) add(stats.lookups, rows.length, started);
    return rows;
  };
}

function lineCount(text: string | Buffer): number {
  const bytes = typeof text === 'string' ? Buffer.from(text) : text;
  let lines = 0;
  for (let at = bytes.indexOf(0x0a); at !== -1; at = bytes.indexOf(0x0a, at + 1)) lines += 1;
  return lines;
}

const tally = (): StatementTally => ({ calls: 0, rows: 0, ms: 0 });

function add(into: StatementTally, rows: number, started: number): void {
  into.calls += 1;
  into.rows += rows;
  into.ms += performance.now() - started;
}
