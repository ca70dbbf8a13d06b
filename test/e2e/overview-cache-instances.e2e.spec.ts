import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { type ClickHouseHttpServer, startClickHouseHttpServer } from '../support/clickhouse-http.process';
import { ApiClient } from '../support/http-client';
import { testDatabaseUrl, uniqueSchemaName } from '../support/postgres';
import { RedisTestContext, testRedisUrl } from '../support/redis';
import { ServiceProcess, startServiceProcess } from '../support/service-process';
import { trunkBody } from '../support/trunk-requests';

const ADMIN = `sk_live_${randomBytes(24).toString('hex').slice(0, 32)}`;
const HOUR = 3_600_000;
/** Write-then-read rounds; they alternate which instance writes. */
const ROUNDS = 6;

interface Overview {
  summary: { total_calls: number };
  performance: { p95_latency_ms: number };
  timeseries: { timestamp: string; calls: number; p95_latency_ms: number }[];
}

/**
 * Two instances (child processes) on one event store, one Redis and one ClickHouse (the HTTP test
 * server over chDB), each keeping the whole hours of the overviews it answered for an hour
 * (OVERVIEW_CACHE_TTL_MS), so that only a drop through the bus can end a copy during the test.
 * Each round reads the overview through the reader (which keeps its whole hours), stores a call
 * in one of those whole hours through the writer, and reads through the reader at once: the call
 * must be counted, in its bucket and in the percentiles. A re-send that moves a call to another
 * hour (a cancel row in the old hour) must move it in the reader's answer too.
 */
describe('GET /v1/analytics/overview across instances: a stored call is counted by the next overview on any instance', () => {
  const schema = uniqueSchemaName('ovcache');
  const redisContext = new RedisTestContext('overview-cache');
  const dataDirs: string[] = [];
  const services: ServiceProcess[] = [];
  const clients: ApiClient[] = [];
  let clickhouse: ClickHouseHttpServer;

  beforeAll(async () => {
    const chDir = mkdtempSync(join(tmpdir(), 'trunkline-ovcache-ch-'));
    dataDirs.push(chDir);
    clickhouse = await startClickHouseHttpServer(join(chDir, 'chdb'));
    const masterKey = randomBytes(32).toString('base64');
    const namespace = redisContext.namespace();
    // One after the other: the first creates the event-store schema and the tables.
    for (let i = 0; i < 2; i++) {
      const dataDir = mkdtempSync(join(tmpdir(), 'trunkline-ovcache-'));
      dataDirs.push(dataDir);
      services.push(
        await startServiceProcess({
          DATA_DIR: dataDir,
          EVENT_STORE_URL: testDatabaseUrl(),
          EVENT_STORE_SCHEMA: schema,
          REDIS_URL: testRedisUrl(),
          REDIS_NAMESPACE: namespace,
          CLICKHOUSE_URL: clickhouse.url,
          MASTER_KEY: masterKey,
          ADMIN_API_KEY: ADMIN,
          PROVIDER_VALIDATION: 'format',
          OVERVIEW_CACHE_TTL_MS: String(HOUR),
        }),
      );
    }
  });

  afterAll(async () => {
    for (const client of clients) await client.close();
    for (const service of services) {
      service.child.kill('SIGTERM');
      await service.exited;
    }
    await clickhouse?.close();
    for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
    const pg = new Client({ connectionString: testDatabaseUrl() });
    await pg.connect();
    await pg.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await pg.end();
    await redisContext.teardown();
  });

  it('counts on one instance every call stored through the other, re-sends that move a call included', async () => {
    const admin = new ApiClient(services[0].origin, services[0].ca, ADMIN);
    clients.push(admin);
    const account = await admin.post('/v1/accounts', { name: 'Overview copies' });
    const key = (await admin.post('/v1/api-keys', { account_id: account.body.id, name: 'full', scopes: ['full'] })).body
      .key as string;
    const trunk = (await admin.withKey(key).post('/v1/trunks', trunkBody())).body;
    const [a, b] = services.map((service) => {
      const client = new ApiClient(service.origin, service.ca, key);
      clients.push(client);
      return client;
    });
    // A range that starts and ends inside hours: two days of whole hours between partial edges.
    const end = new Date();
    const start = new Date(Math.floor(end.getTime() / HOUR) * HOUR - 48 * HOUR + 17 * 60_000);
    const path = `/v1/analytics/overview?start_date=${start.toISOString()}&end_date=${end.toISOString()}&granularity=hourly`;
    const overview = async (client: ApiClient): Promise<Overview> => {
      const response = await client.get(path);
      expect(response.status).toBe(200);
      return response.body as Overview;
    };
    const bucketCalls = (o: Overview, hour: number) =>
      o.timeseries.find((t) => t.timestamp === new Date(hour).toISOString())?.calls ?? 0;
    const wholeHour = (hoursBack: number) => Math.floor(end.getTime() / HOUR) * HOUR - hoursBack * HOUR;
    const call = (id: string, at: number, latencyMs: number) => ({
      id,
      trunk_id: trunk.id,
      from: '+14155550100',
      to: '+14155550199',
      status: 'connected',
      start_time: new Date(at).toISOString(),
      carrier_lag_ms: latencyMs - 20,
      ai_latency_ms: 10,
      gateway_processing_ms: 10,
    });

    let stored = 0;
    for (let round = 0; round < ROUNDS; round++) {
      const [writer, reader] = round % 2 === 0 ? [a, b] : [b, a];
      const before = await overview(reader);
      expect(before.summary.total_calls).toBe(stored);
      const hour = wholeHour(3 + round * 5);
      // Slower than every call before: the range's p95 and the bucket's move to it. Multiples of 8
      // below 2048 ms are bins' lower bounds (8 significant bits), so the percentiles are exact.
      const latencyMs = 1000 + round * 104;
      const result = await writer.post('/v1/ingest/calls', [call(`call_round${round}`, hour + 600_000, latencyMs)]);
      expect(result.body).toEqual({ accepted: 1, rejected: [] });
      stored += 1;
      const after = await overview(reader);
      expect(after.summary.total_calls).toBe(stored);
      expect(bucketCalls(after, hour)).toBe(bucketCalls(before, hour) + 1);
      expect(after.performance.p95_latency_ms).toBe(latencyMs);
      expect(after.timeseries.find((t) => t.timestamp === new Date(hour).toISOString())?.p95_latency_ms).toBe(
        latencyMs,
      );
      expect(after).toEqual(await overview(writer));
    }

    // A re-send moves call_round0 to another whole hour: its cancel row is in the old one.
    const from = wholeHour(3);
    const to = wholeHour(30);
    const before = await overview(a);
    expect(bucketCalls(before, from)).toBe(1);
    const moved = await b.post('/v1/ingest/calls', [call('call_round0', to + 60_000, 1000)]);
    expect(moved.body).toEqual({ accepted: 1, rejected: [] });
    const after = await overview(a);
    expect(after.summary.total_calls).toBe(stored);
    expect(bucketCalls(after, from)).toBe(0);
    expect(bucketCalls(after, to)).toBe(bucketCalls(before, to) + 1);
    expect(after).toEqual(await overview(b));
  });
});
