import { mkdtempSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EmbeddedClickHouse } from '../../src/infrastructure/clickhouse/embedded/embedded.clickhouse';
import {
  DEFAULT_EMBEDDED_MEMORY_LIMIT_BYTES,
  EMBEDDED_SERVER_SETTINGS,
} from '../../src/infrastructure/clickhouse/embedded/chdb.settings';
import { openPgliteDb, PGLITE_SHARED_BUFFERS } from '../../src/infrastructure/event-store/postgres/pglite.open';

/**
 * The embedded stores run with the memory settings docs/memory.md describes: the engines report
 * them back, so a setting the engine ignored or renamed fails here rather than silently.
 */
const root = mkdtempSync(join(tmpdir(), 'trunkline-memory-settings-'));
afterAll(() => rm(root, { recursive: true, force: true }));

it('chDB runs with our cache sizes and memory cap', async () => {
  const clickhouse = await EmbeddedClickHouse.open({ dir: join(root, 'clickhouse') });
  try {
    const rows = await clickhouse.query<{ name: string; value: string }>(
      'SELECT name, value FROM system.server_settings WHERE name IN {names:Array(String)}',
      { names: [...Object.keys(EMBEDDED_SERVER_SETTINGS), 'max_server_memory_usage'] },
    );
    const actual = Object.fromEntries(rows.map((r) => [r.name, Number(r.value)]));
    expect(actual).toEqual({
      ...EMBEDDED_SERVER_SETTINGS,
      max_server_memory_usage: DEFAULT_EMBEDDED_MEMORY_LIMIT_BYTES,
    });
  } finally {
    await clickhouse.close();
  }
});

it('PGlite creates a new data directory, then reopens it, with our shared_buffers', async () => {
  const dir = join(root, 'eventstore');
  for (const attempt of ['created', 'reopened']) {
    const db = await openPgliteDb(dir);
    try {
      await db.exec('CREATE TABLE IF NOT EXISTS opened (at text)');
      await db.query('INSERT INTO opened VALUES ($1)', [attempt]);
      const { rows } = await db.query<{ shared_buffers: string }>('SHOW shared_buffers');
      expect(rows[0].shared_buffers).toBe(PGLITE_SHARED_BUFFERS);
    } finally {
      await db.close();
    }
  }
  const db = await openPgliteDb(dir);
  const { rows } = await db.query<{ at: string }>('SELECT at FROM opened ORDER BY at');
  await db.close();
  expect(rows.map((r) => r.at)).toEqual(['created', 'reopened']);
});
