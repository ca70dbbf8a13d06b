import { mkdtempSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ChildProcess } from 'node:child_process';
import { createClickHouse } from '../../src/infrastructure/clickhouse/clickhouse.factory';
import {
  type ClickHouseExecutor,
  ClickHouseUnavailableError,
} from '../../src/infrastructure/clickhouse/clickhouse.port';

/**
 * chDB's parameter binding is process-global state and unsafe under concurrent calls; the embedded
 * adapter runs one statement at a time in its worker. These tests hammer one executor and check
 * that every answer belongs to its own call, then that data survives closing and crashes.
 */
const root = mkdtempSync(join(tmpdir(), 'trunkline-chdb-hammer-'));
afterAll(() => rm(root, { recursive: true, force: true }));

let dirs = 0;
const open = (dataDir = join(root, `d${dirs++}`)): Promise<ClickHouseExecutor> =>
  createClickHouse({ url: null, dataDir });
const workerOf = (executor: ClickHouseExecutor): ChildProcess =>
  (executor as unknown as { worker: ChildProcess }).worker;

const LOOKUP_SIZE = 1000;
const lookupValue = (k: number): string => `v${k} it's "q"\n\t😀`;

async function createTables(ch: ClickHouseExecutor): Promise<void> {
  await ch.command('CREATE TABLE IF NOT EXISTS lookup (k UInt32, v String) ENGINE = MergeTree ORDER BY k');
  await ch.command(
    'CREATE TABLE IF NOT EXISTS calls (batch UInt32, seq UInt32, trunk String, duration_ms UInt32, note String) ENGINE = MergeTree ORDER BY (batch, seq)',
  );
  await ch.insert(
    'lookup',
    Array.from({ length: LOOKUP_SIZE }, (_, k) => ({ k, v: lookupValue(k) })),
  );
}

const callRows = (batch: number, size: number, noteBytes = 40): Record<string, unknown>[] =>
  Array.from({ length: size }, (_, seq) => ({
    batch,
    seq,
    trunk: `trunk-${seq % 5}`,
    duration_ms: seq,
    note: `${batch}:${seq}:`.padEnd(noteBytes, 'x'),
  }));

/** One of four kinds of operation, each checking its own exact answer. Returns rows inserted. */
async function operation(ch: ClickHouseExecutor, i: number): Promise<number> {
  switch (i % 4) {
    case 0: {
      const ks = [i % LOOKUP_SIZE, (i * 7) % LOOKUP_SIZE, (i * 13) % LOOKUP_SIZE].sort((a, b) => a - b);
      const rows = await ch.query('SELECT k, v FROM lookup WHERE k IN {ks:Array(UInt32)} ORDER BY k', { ks });
      expect(rows).toEqual([...new Set(ks)].map((k) => ({ k, v: lookupValue(k) })));
      return 0;
    }
    case 1: {
      const echo = {
        s: `call ${i} '${'"'.repeat(i % 3)}\n`,
        n: -i,
        t: new Date(1_700_000_000_000 + i),
        a: [`${i}`, `${i + 1}`],
      };
      const rows = await ch.query(
        'SELECT {s:String} AS s, {n:Int64} AS n, {t:DateTime64(3)} AS t, {a:Array(String)} AS a',
        echo,
      );
      expect(rows).toEqual([{ ...echo, t: echo.t.toISOString() }]);
      return 0;
    }
    case 2: {
      const size = 20 + (i % 50);
      await ch.insert('calls', callRows(i, size));
      // Read-your-write: once insert() resolves, the rows are visible to the next statement.
      expect(await ch.query('SELECT count() AS c FROM calls WHERE batch = {b:UInt32}', { b: i })).toEqual([
        { c: size },
      ]);
      return size;
    }
    default: {
      const n = 1 + ((i * 31) % LOOKUP_SIZE);
      const rows = await ch.query(
        'SELECT count() AS c, sum(k) AS s, uniqExact(v) AS u FROM lookup WHERE k < {n:UInt32}',
        { n },
      );
      expect(rows).toEqual([{ c: n, s: (n * (n - 1)) / 2, u: n }]);
      return 0;
    }
  }
}

describe('embedded ClickHouse under concurrent load', () => {
  it('answers 200 concurrent mixed calls, each with the rows for its own parameters', async () => {
    const ch = await open();
    try {
      await createTables(ch);
      const inserted = await Promise.all(Array.from({ length: 200 }, (_, i) => operation(ch, i)));
      const expected = inserted.reduce((a, b) => a + b, 0);
      expect(await ch.query('SELECT count() AS c, uniqExact(batch) AS batches FROM calls')).toEqual([
        { c: expected, batches: 50 },
      ]);
    } finally {
      await ch.close();
    }
  });

  it('inserts 10,000-row batches of about 2 KB a row', async () => {
    const ch = await open();
    try {
      await createTables(ch);
      await Promise.all([1, 2, 3].map((batch) => ch.insert('calls', callRows(batch, 10_000, 2_000))));
      expect(await ch.query('SELECT count() AS c, sum(length(note)) AS bytes FROM calls')).toEqual([
        { c: 30_000, bytes: 30_000 * 2_000 },
      ]);
    } finally {
      await ch.close();
    }
  });
});

describe('embedded ClickHouse lifecycle', () => {
  it('finishes calls already made on close, shuts the worker down, and keeps the data on disk', async () => {
    const dataDir = join(root, 'durable');
    const ch = await open(dataDir);
    await createTables(ch);
    const worker = workerOf(ch);
    const exited = new Promise((resolve) => worker.once('exit', resolve));
    const inserts = Array.from({ length: 20 }, (_, batch) => ch.insert('calls', callRows(batch, 100)));
    await ch.close();
    await expect(Promise.all(inserts)).resolves.toHaveLength(20);
    await exited;
    await expect(ch.query('SELECT 1')).rejects.toBeInstanceOf(ClickHouseUnavailableError);

    const reopened = await open(dataDir);
    try {
      expect(await reopened.query('SELECT count() AS c FROM calls')).toEqual([{ c: 2_000 }]);
      expect(await reopened.query('SELECT count() AS c FROM lookup')).toEqual([{ c: LOOKUP_SIZE }]);
    } finally {
      await reopened.close();
    }
  });

  it('fails the calls a crashed worker held as unavailable, and starts a new worker for the next call', async () => {
    const ch = await open();
    try {
      await createTables(ch);
      const crashed = workerOf(ch);
      // A message the engine process cannot handle stands in for a bug: its handler throws, uncaught.
      crashed.send(null as unknown as string);
      const held = await Promise.allSettled([ch.query('SELECT 1 AS one'), ch.insert('calls', callRows(1, 10))]);
      expect(held.map((r) => (r.status === 'rejected' ? r.reason : r.value))).toEqual([
        expect.any(ClickHouseUnavailableError),
        expect.any(ClickHouseUnavailableError),
      ]);
      expect(await ch.query('SELECT count() AS c FROM lookup')).toEqual([{ c: LOOKUP_SIZE }]);
      expect(workerOf(ch)).not.toBe(crashed);
    } finally {
      await ch.close();
    }
  });
});
