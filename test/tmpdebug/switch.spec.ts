import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EmbeddedClickHouse } from '../../src/infrastructure/clickhouse/embedded/embedded.clickhouse';

const root = mkdtempSync(join(tmpdir(), 'dbg-'));
it('switches', async () => {
  const entry = { file: '/tmp/chx/dbgw/chdb.worker.ts', execArgv: ['--require', require.resolve('@swc-node/register')] };
  for (let i = 0; i < 15; i++) {
    const t = Date.now();
    const ch = await EmbeddedClickHouse.open({ dir: join(root, `d${i}`), workerEntry: entry });
    await ch.command('CREATE TABLE IF NOT EXISTS calls (b UInt32, s UInt32) ENGINE = MergeTree ORDER BY (b, s)');
    await ch.insert('calls', [{ b: 1, s: 1 }]);
    process.stderr.write(`${i}: open ${Date.now() - t}\n`);
    await ch.close();
    process.stderr.write(`${i}: closed\n`);
  }
}, 60000);
