import { SETTLE_DEADLINE_MS } from '../support/deadlines';
import { lookup } from 'node:dns/promises';
import { hostname } from 'node:os';
import { expectError } from '../support/http-client';
import { useIsolatedSchema } from '../support/postgres';
import { provisionAccountDirect, startTestApp, TEST_REDIS_URL, TestApp } from '../support/test-app';
import { isForbiddenAddress } from '../../src/webhooks/delivery/ssrf.guard';
import { WebhookReceiver } from './webhooks-support';

const { url, schema } = useIsolatedSchema('webhooks_ssrf');

/**
 * WEBHOOK_ALLOW_PRIVATE off (the default), on PostgreSQL and Redis: private targets are refused
 * at registration when the URL says so, and at connect time when a name resolves to one.
 */
describe('webhooks refuse private addresses unless allowed', () => {
  let app: TestApp;
  const receiver = new WebhookReceiver();

  beforeAll(async () => {
    await receiver.start();
    app = await startTestApp({
      REDIS_URL: TEST_REDIS_URL,
      EVENT_STORE_URL: url,
      EVENT_STORE_SCHEMA: schema,
      MASTER_KEY: Buffer.alloc(32, 5).toString('base64'),
      WEBHOOK_CA_FILE: receiver.caFile,
      WEBHOOK_RETRY_SCHEDULE_MS: '100',
      WEBHOOK_POLL_INTERVAL_MS: '50',
    });
  });

  afterAll(async () => {
    await app?.stop();
    await receiver.stop();
  });

  it('refuses loopback, private, link-local and IPv4-mapped literals and localhost at registration', async () => {
    const { client } = await provisionAccountDirect(app);
    const port = new URL(receiver.origin).port;
    for (const target of [
      `https://127.0.0.1:${port}/x`,
      'https://10.1.2.3/x',
      'https://169.254.169.254/latest',
      'https://[::1]/x',
      'https://[::ffff:127.0.0.1]/x',
      'https://localhost/x',
      'https://0.0.0.0/x',
    ]) {
      const response = await client.post('/v1/webhook-endpoints', { url: target });
      expectError(response, 400, 'missing_required_field');
      expect({ target, param: response.body.error.param }).toEqual({ target, param: 'url' });
    }
  });

  it('refuses to connect when a name resolves to a private address (checked on every attempt)', async () => {
    const name = hostname();
    const resolved = await lookup(name).catch(() => null);
    if (!resolved || !isForbiddenAddress(resolved.address)) {
      console.warn(
        `skipped: the host name ${name} does not resolve to a private address here (${resolved?.address ?? 'unresolved'})`,
      );
      return;
    }
    const { client } = await provisionAccountDirect(app);
    const endpoint = (
      await client.post('/v1/webhook-endpoints', { url: `https://${name}:${new URL(receiver.origin).port}/ssrf` })
    ).body;
    expect(endpoint.id).toMatch(/^we_/);
    await client.post(`/v1/webhook-endpoints/${endpoint.id}/test`);
    const started = Date.now();
    let delivery: any;
    do {
      await new Promise((resolve) => setTimeout(resolve, 100));
      delivery = (await client.get(`/v1/webhook-endpoints/${endpoint.id}/deliveries`)).body.deliveries[0];
    } while (delivery.status === 'pending' && Date.now() - started < SETTLE_DEADLINE_MS);
    expect(delivery).toMatchObject({
      status: 'failed',
      failure_reason: 'exhausted',
      attempts: 2,
      last_response_status: null,
    });
    expect(delivery.last_error).toContain('private or reserved address');
    expect(receiver.on('/ssrf')).toHaveLength(0);
  });
});
