import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type ClickHouseHttpServer, startClickHouseHttpServer } from '../support/clickhouse-http.process';
import { ApiClient } from '../support/http-client';
import type { ServiceProcess } from '../support/service-process';
import { SharedStores } from '../support/shared-stores';
import { SseConnection } from '../support/sse-client';
import { trunkBody } from '../support/trunk-requests';

/**
 * Two instances (child processes) on one event store, one Redis and one ClickHouse (the HTTP test
 * server over chDB): a stream open on one hears of what is stored through the other by the
 * cluster bus. Their streams read the store every six hours only, so what arrives in time was
 * woken by the bus.
 */
describe('GET /v1/calls/stream across instances', () => {
  const stores = new SharedStores('stream');
  const services: ServiceProcess[] = [];
  let chDir: string;
  let clickhouse: ClickHouseHttpServer;
  let stream: SseConnection | null = null;

  beforeAll(async () => {
    chDir = mkdtempSync(join(tmpdir(), 'trunkline-stream-ch-'));
    clickhouse = await startClickHouseHttpServer(join(chDir, 'chdb'));
    // One after the other: the first creates the event-store schema and the tables.
    for (let i = 0; i < 2; i++)
      services.push(await stores.start({ CLICKHOUSE_URL: clickhouse.url, CALL_STREAM_POLL_MS: String(6 * 3_600_000) }));
  });

  afterAll(async () => {
    stream?.close();
    for (const service of services) {
      service.child.kill('SIGTERM');
      await service.exited;
    }
    await clickhouse?.close();
    rmSync(chDir, { recursive: true, force: true });
    await stores.teardown();
  });

  it('sends on one instance the call and the rejection stored through the other', async () => {
    const [a, b] = services;
    const adminA = new ApiClient(a.origin, a.ca, stores.adminKey);
    try {
      const account = await adminA.post('/v1/accounts', { name: 'Across' });
      const key = (await adminA.post('/v1/api-keys', { account_id: account.body.id, name: 'full', scopes: ['full'] }))
        .body.key as string;
      const client = adminA.withKey(key);
      const trunk = (await client.post('/v1/trunks', trunkBody())).body;
      const opened = await SseConnection.open(b.origin, b.ca, key);
      if (!(opened instanceof SseConnection)) throw new Error(`stream refused: ${JSON.stringify(opened)}`);
      stream = opened;
      await opened.until((events) => events.some((e) => e.event === 'ready'), 'ready event');
      const stored = await client.post('/v1/ingest/calls', [
        {
          id: 'call_acrossInstances',
          trunk_id: trunk.id,
          from: '+14155550100',
          to: '+14155550199',
          status: 'connected',
          start_time: new Date().toISOString(),
        },
      ]);
      expect(stored.body).toEqual({ accepted: 1, rejected: [] });
      await opened.until(
        (events) => events.some((e) => e.event === 'call'),
        'the call stored through the other instance',
      );
      const refused = await client.post('/v1/ingest/rejections', [
        {
          id: 'rej_acrossInstances',
          at: new Date().toISOString(),
          reason: 'auth_failed',
          sip_code: 403,
          source_address: '192.0.2.10',
          trunk_id: trunk.id,
        },
      ]);
      expect(refused.body).toEqual({ accepted: 1, rejected: [] });
      await opened.until((events) => events.some((e) => e.event === 'rejection'), 'the rejection');
      expect(opened.events.filter((e) => e.event !== 'ready').map((e) => e.data.id)).toEqual([
        'call_acrossInstances',
        'rej_acrossInstances',
      ]);
    } finally {
      await adminA.close();
    }
  });
});
