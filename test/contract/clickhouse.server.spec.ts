import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient } from '@clickhouse/client';
import { createClickHouse } from '../../src/infrastructure/clickhouse/clickhouse.factory';
import { ClickHouseUnavailableError } from '../../src/infrastructure/clickhouse/clickhouse.port';
import { type ClickHouseHttpServer, startClickHouseHttpServer } from '../support/clickhouse-http.process';
import { freePort } from '../support/free-port';
import { clickHouseContract } from './clickhouse.contract';

/**
 * The server adapter over HTTP. With CLICKHOUSE_URL (a scratch database: the suite creates tables
 * and a schema_migrations table there, e.g. http://default:@127.0.0.1:8123/trunkline_test) against
 * that server; without it against test/support/clickhouse-http.server.ts, chDB behind ClickHouse's
 * HTTP interface (what that covers and what it does not: docs/testing.md).
 */
const liveUrl = process.env.CLICKHOUSE_URL;
const dataDir = mkdtempSync(join(tmpdir(), 'trunkline-ch-http-'));
let shim: ClickHouseHttpServer | undefined;

const serverUrl = (): string => liveUrl ?? shim?.url ?? fail('the ClickHouse HTTP test server is not running');

if (!liveUrl) {
  beforeAll(async () => {
    shim = await startClickHouseHttpServer(join(dataDir, 'chdb'));
  });
}

afterAll(async () => {
  await shim?.close();
  await rm(dataDir, { recursive: true, force: true });
});

clickHouseContract(liveUrl ? 'server' : 'server over the chDB HTTP test server', () =>
  createClickHouse({ url: serverUrl(), dataDir }),
);

describe('ClickHouse server adapter over HTTP', () => {
  it('maps TIMEOUT_EXCEEDED from its max_execution_time to ClickHouseUnavailableError', async () => {
    const ch = await createClickHouse({ url: serverUrl(), dataDir, timeoutMs: 1_000 });
    try {
      await expect(
        ch.query('SELECT count() AS c FROM system.numbers WHERE NOT ignore(sipHash64(number))'),
      ).rejects.toEqual(expect.objectContaining({ name: 'ClickHouseUnavailableError', clickhouseCode: 159 }));
      expect(await ch.query('SELECT 1 AS one')).toEqual([{ one: 1 }]);
    } finally {
      await ch.close();
    }
  });

  it('fails as unavailable when nothing answers at the URL', async () => {
    const url = `http://127.0.0.1:${await freePort()}`;
    // The client logs the refused ping as a warning; here it is the expected outcome.
    const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    try {
      await expect(createClickHouse({ url, dataDir })).rejects.toBeInstanceOf(ClickHouseUnavailableError);
    } finally {
      warn.mockRestore();
    }
  });

  // The adapter leaves compression off; this keeps the test server's gzip paths honest.
  it('round-trips gzip-compressed request and response bodies', async () => {
    const client = createClient({ url: serverUrl(), compression: { request: true, response: true } });
    const table = `compressed_${randomBytes(5).toString('hex')}`;
    const rows = [
      { id: 1, note: `it's "quoted" \\ ; -- ${'x'.repeat(2000)}` },
      { id: 2, note: '' },
    ];
    try {
      await client.command({ query: `CREATE TABLE ${table} (id UInt8, note String) ENGINE = MergeTree ORDER BY id` });
      await client.insert({ table, values: rows, format: 'JSONEachRow' });
      const result = await client.query({
        query: `SELECT id, note FROM ${table} WHERE id >= {min:UInt8} ORDER BY id`,
        query_params: { min: 1 },
        format: 'JSONEachRow',
      });
      expect(await result.json()).toEqual(rows);
    } finally {
      await client.command({ query: `DROP TABLE IF EXISTS ${table}` }).catch(() => undefined);
      await client.close();
    }
  });
});

function fail(message: string): never {
  throw new Error(message);
}
