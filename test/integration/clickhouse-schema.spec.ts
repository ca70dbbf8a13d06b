import { mkdtempSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClickHouse } from '../../src/infrastructure/clickhouse/clickhouse.factory';
import type { ClickHouseExecutor } from '../../src/infrastructure/clickhouse/clickhouse.port';
import { CLICKHOUSE_MIGRATIONS } from '../../src/infrastructure/clickhouse/migrations/index';
import { CLICKHOUSE_TABLES } from '../../src/infrastructure/clickhouse/schema';
import {
  CALL_RECORDS_INSERT_TABLES,
  DEDUPLICATION_WINDOW,
} from '../../src/infrastructure/clickhouse/migrations/009-insert-deduplication';

/**
 * The schema module (src/infrastructure/clickhouse/schema.ts) describes what the frozen migrations
 * leave behind: after every migration has run on a fresh embedded chDB, each described table has
 * exactly the described columns, in order and with their types, and every table of the database
 * (materialized views aside) is described.
 */
const root = mkdtempSync(join(tmpdir(), 'trunkline-schema-'));
afterAll(() => rm(root, { recursive: true, force: true }));

describe('the ClickHouse schema module', () => {
  let ch: ClickHouseExecutor;

  beforeAll(async () => {
    ch = await createClickHouse({ url: null, dataDir: join(root, 'ch'), migrations: CLICKHOUSE_MIGRATIONS });
  });
  afterAll(() => ch?.close());

  it('describes every table the migrations create, and nothing else', async () => {
    const tables = await ch.query<{ name: string }>(
      "SELECT name FROM system.tables WHERE database = currentDatabase() AND engine != 'MaterializedView' ORDER BY name",
    );
    expect(tables.map((t) => t.name)).toEqual(CLICKHOUSE_TABLES.map((t) => t.name).sort());
  });

  it.each(CLICKHOUSE_TABLES.map((table) => [table.name, table] as const))(
    '%s: the columns, in order and typed, as migrated',
    async (name, table) => {
      const columns = await ch.query<{ name: string; type: string }>(
        'SELECT name, type FROM system.columns WHERE database = currentDatabase() AND table = {table:String} ORDER BY position',
        { table: name },
      );
      expect(columns).toEqual(Object.entries(table.columns).map(([column, type]) => ({ name: column, type })));
    },
  );

  // The writer's re-send of a refused INSERT is exactly-once only where every table it reaches
  // keeps a window (call-record.writer.ts, migration 9): found here from the engine's own view graph.
  it('keeps a deduplication window on call_records and on every table its views write, directly or through another view', async () => {
    const tables = await ch.query<{
      name: string;
      engine: string;
      dependents: string[];
      query: string;
      engine_full: string;
    }>(
      `SELECT name, engine, dependencies_table AS dependents, create_table_query AS query, engine_full
       FROM system.tables WHERE database = currentDatabase()`,
    );
    const byName = new Map(tables.map((t) => [t.name, t]));
    const reached = new Set<string>();
    const visit = (name: string): void => {
      if (reached.has(name)) return;
      reached.add(name);
      for (const view of byName.get(name)?.dependents ?? []) {
        const target = /\bTO\s+(?:\w+\.)?(\w+)/.exec(byName.get(view)?.query ?? '')?.[1];
        if (target) visit(target);
      }
    };
    visit('call_records');
    expect([...reached].sort()).toEqual([...CALL_RECORDS_INSERT_TABLES].sort());
    for (const name of reached)
      expect([name, byName.get(name)?.engine_full]).toEqual([
        name,
        expect.stringContaining(`non_replicated_deduplication_window = ${DEDUPLICATION_WINDOW}`),
      ]);
  });
});
