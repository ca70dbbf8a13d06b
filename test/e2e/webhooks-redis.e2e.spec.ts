import { SETTLE_DEADLINE_MS } from '../support/deadlines';
import { until } from '../support/free-port';
import { useIsolatedSchema } from '../support/postgres';
import { provisionAccountDirect, startTestApp, TEST_REDIS_URL, TestApp } from '../support/test-app';
import { trunkBody } from '../support/trunk-requests';
import { verifyStandardWebhook, WebhookReceiver } from './webhooks-support';

const { url, schema } = useIsolatedSchema('webhooks_redis');

/** The production setup: PostgreSQL event store, Redis read models (a leased, fenced runner). */
describe('webhooks on PostgreSQL and Redis', () => {
  let app: TestApp;
  let second: TestApp;
  const receiver = new WebhookReceiver();

  beforeAll(async () => {
    await receiver.start();
    const env = {
      REDIS_URL: TEST_REDIS_URL,
      REDIS_NAMESPACE: `t:wh${Math.random().toString(36).slice(2)}:`,
      EVENT_STORE_URL: url,
      EVENT_STORE_SCHEMA: schema,
      MASTER_KEY: Buffer.alloc(32, 6).toString('base64'),
      ADMIN_API_KEY: `sk_live_${'R'.repeat(32)}`,
      PROVIDER_VALIDATION: 'format',
      WEBHOOK_ALLOW_PRIVATE: 'true',
      WEBHOOK_CA_FILE: receiver.caFile,
      WEBHOOK_RETRY_SCHEDULE_MS: '200,200',
      WEBHOOK_POLL_INTERVAL_MS: '20',
    };
    app = await startTestApp(env);
    // A second instance on the same stores: its worker polls the same due queue.
    second = await startTestApp(env);
  });

  afterAll(async () => {
    await second?.stop();
    await app?.stop();
    await receiver.stop();
  });

  it('retries and delivers a signed trunk event, with the delivery visible right after the write', async () => {
    const { client } = await provisionAccountDirect(app);
    const endpoint = (
      await client.post('/v1/webhook-endpoints', {
        url: receiver.script('/redis', [500, 200]),
        event_types: ['trunk.created'],
      })
    ).body;
    expect((await client.get('/v1/webhook-endpoints')).body.pagination.total).toBe(1);
    const trunk = (await client.post('/v1/trunks', trunkBody())).body;
    await receiver.waitFor(
      () => receiver.on('/redis').some((r) => r.reply === 200),
      SETTLE_DEADLINE_MS,
      'the retried delivery',
    );
    const [first, second] = receiver.on('/redis');
    expect(first.json.id).toBe(second.json.id);
    expect(second.json).toMatchObject({ type: 'trunk.created', data: { id: trunk.id } });
    expect(verifyStandardWebhook(endpoint.secret, second.headers, second.body)).toBe(true);
    // The worker records the attempt after the receiver answered: the list shows it once projected.
    let deliveries: any[] = [];
    await until(
      'the delivery recorded as succeeded',
      async () => {
        deliveries = (await client.get(`/v1/webhook-endpoints/${endpoint.id}/deliveries`)).body.deliveries;
        return deliveries[0]?.status === 'succeeded';
      },
      SETTLE_DEADLINE_MS,
    ).catch(() => undefined); // the assertion below says what is there
    expect(deliveries).toEqual([
      expect.objectContaining({
        status: 'succeeded',
        attempts: 2,
        attempt_history: [
          expect.objectContaining({ response_status: 500 }),
          expect.objectContaining({ response_status: 200 }),
        ],
      }),
    ]);
    const ping = await client.post(`/v1/webhook-endpoints/${endpoint.id}/test`);
    expect(ping.status).toBe(202);
    const listed = (await client.get(`/v1/webhook-endpoints/${endpoint.id}/deliveries`)).body.deliveries;
    expect(listed.map((d: any) => d.id)).toContain(ping.body.id);
  });

  it('records each attempt once when two instances deliver from the same queue', async () => {
    const { client } = await provisionAccountDirect(app);
    const endpoint = (await client.post('/v1/webhook-endpoints', { url: receiver.script('/two', [200]) })).body;
    const pings = await Promise.all(
      Array.from({ length: 30 }, () =>
        client.post(`/v1/webhook-endpoints/${endpoint.id}/test`).then((r) => r.body.id as string),
      ),
    );
    let deliveries: any[] = [];
    await until(
      'all 30 deliveries recorded as succeeded',
      async () => {
        deliveries = (await client.get(`/v1/webhook-endpoints/${endpoint.id}/deliveries?limit=100`)).body.deliveries;
        return deliveries.length === 30 && deliveries.every((d) => d.status === 'succeeded');
      },
      SETTLE_DEADLINE_MS,
    ).catch(() => undefined); // the assertions below say what is missing
    expect(deliveries.map((d) => d.id).sort()).toEqual([...pings].sort());
    expect(deliveries.map((d) => [d.status, d.attempts, d.attempt_history.length])).toEqual(
      Array(30).fill(['succeeded', 1, 1]),
    );
    // Each attempt is claimed by one instance: every event arrived, and none twice.
    expect(new Set(receiver.on('/two').map((r) => r.json.id)).size).toBe(30);
    expect(receiver.on('/two')).toHaveLength(30);
  });
});
