import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as ts from 'typescript';
import { createClickHouse } from '../../src/infrastructure/clickhouse/clickhouse.factory';
import { resolveWorkerEntry } from '../../src/infrastructure/clickhouse/embedded/chdb-worker.entry';
import { EmbeddedClickHouse } from '../../src/infrastructure/clickhouse/embedded/embedded.clickhouse';
import { clickHouseContract } from './clickhouse.contract';

const ROOT = join(__dirname, '..', '..');
const WORKER_SOURCE_DIR = join(ROOT, 'src/infrastructure/clickhouse/embedded');
const dataDir = mkdtempSync(join(tmpdir(), 'trunkline-chdb-'));
afterAll(() => rm(dataDir, { recursive: true, force: true }));

clickHouseContract('embedded chDB', () => createClickHouse({ url: null, dataDir }));

describe('createClickHouse without a URL', () => {
  it('keeps the embedded engine in <dataDir>/clickhouse', () => {
    expect(existsSync(join(dataDir, 'clickhouse', 'metadata'))).toBe(true);
  });
});

describe('embedded insert of JSONEachRow text', () => {
  it('hands the rows over as a file even when the data directory has quotes and backslashes in its path', async () => {
    const executor = await EmbeddedClickHouse.open({ dir: join(dataDir, `it's a "dir" \\ here`) });
    try {
      await executor.command('CREATE TABLE t (id UInt32, note String) ENGINE = MergeTree ORDER BY id');
      await executor.insertJsonEachRow('t', Buffer.from('{"id":1,"note":"a"}\n{"id":2,"note":"b"}\n'));
      expect(await executor.query('SELECT count() AS c FROM t')).toEqual([{ c: 2 }]);
    } finally {
      await executor.close();
    }
  });
});

describe('chDB worker entry', () => {
  it('runs the TypeScript worker through swc when no compiled worker is beside the adapter', () => {
    const entry = resolveWorkerEntry(WORKER_SOURCE_DIR);
    expect(entry.file).toBe(join(WORKER_SOURCE_DIR, 'chdb.worker.ts'));
    expect(entry.execArgv).toEqual(['--require', require.resolve('@swc-node/register')]);
  });

  it('runs the compiled worker as production does, when chdb.worker.js is beside the adapter', async () => {
    // Under node_modules so that the compiled worker resolves `chdb` the way dist/ does.
    const buildDir = mkdtempSync(join(ROOT, 'node_modules', '.cache-trunkline-chdb-worker-'));
    try {
      for (const name of ['chdb.worker', 'chdb.protocol']) {
        const source = readFileSync(join(WORKER_SOURCE_DIR, `${name}.ts`), 'utf8');
        const { outputText } = ts.transpileModule(source, {
          compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022 },
        });
        writeFileSync(join(buildDir, `${name}.js`), outputText);
      }
      const entry = resolveWorkerEntry(buildDir);
      expect(entry).toEqual({ file: join(buildDir, 'chdb.worker.js') });
      const dir = join(dataDir, 'compiled-worker');
      mkdirSync(dir, { recursive: true });
      const executor = await EmbeddedClickHouse.open({ dir, workerEntry: entry });
      expect(await executor.query('SELECT {n:UInt8} + 1 AS n', { n: 41 })).toEqual([{ n: 42 }]);
      await executor.close();
    } finally {
      await rm(buildDir, { recursive: true, force: true });
    }
  });
});
