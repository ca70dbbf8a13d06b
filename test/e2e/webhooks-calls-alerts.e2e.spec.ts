import { SETTLE_DEADLINE_MS } from '../support/deadlines';
import { randomBytes } from 'node:crypto';
import { ApiClient, expectError } from '../support/http-client';
import { provisionAccountDirect, startTestApp, TestApp } from '../support/test-app';
import { trunkBody } from '../support/trunk-requests';
import { verifyStandardWebhook, WebhookReceiver } from './webhooks-support';
import { CALL_LIST_ITEM_KEYS } from '../../src/calls/contracts/call-list-item';

const ENV = {
  WEBHOOK_ALLOW_PRIVATE: 'true',
  WEBHOOK_RETRY_SCHEDULE_MS: '300,600',
  // Generous: a loaded machine's loopback receiver can take seconds to answer (webhooks.e2e.spec.ts).
  WEBHOOK_TIMEOUT_MS: '10000',
  WEBHOOK_POLL_INTERVAL_MS: '50',
  ALERT_EVALUATION_INTERVAL_MS: '250',
};
const path = () => `/hook-${randomBytes(4).toString('hex')}`;

function call(
  trunkId: string,
  latency: number,
  id = `call_${randomBytes(8).toString('hex')}`,
): Record<string, unknown> {
  const start = new Date(Date.now() - 60_000);
  return {
    id,
    trunk_id: trunkId,
    from: '+14155550100',
    to: '+14155550101',
    status: 'connected',
    start_time: start.toISOString(),
    end_time: new Date(start.getTime() + 30_000).toISOString(),
    carrier_lag_ms: 20,
    ai_latency_ms: latency,
    gateway_processing_ms: 10,
  };
}

async function ingest(gateway: ApiClient, records: object[]): Promise<void> {
  const response = await gateway.call('POST', '/v1/ingest/calls', {
    rawBody: records.map((r) => JSON.stringify(r)).join('\n'),
    headers: { 'content-type': 'application/x-ndjson' },
  });
  expect({ status: response.status, accepted: response.body?.accepted }).toEqual({
    status: 200,
    accepted: records.length,
  });
}

describe('call.completed and latency alerts', () => {
  let app: TestApp;
  const receiver = new WebhookReceiver();

  beforeAll(async () => {
    await receiver.start();
    app = await startTestApp({ ...ENV, WEBHOOK_CA_FILE: receiver.caFile });
  });

  afterAll(async () => {
    await app?.stop();
    await receiver.stop();
  });

  async function setup() {
    const { client, accountId } = await provisionAccountDirect(app);
    const { key } = await provisionAccountDirectKey(accountId);
    const trunkId = (await client.post('/v1/trunks', trunkBody())).body.id as string;
    return { client, gateway: app.admin.withKey(key), trunkId };
  }

  async function provisionAccountDirectKey(accountId: string) {
    const { CommandBus } = await import('@nestjs/cqrs');
    const { IssueApiKey } = await import('../../src/api-keys/write/api-key.handlers');
    return app.running.app
      .get(CommandBus)
      .execute(new IssueApiKey({ accountId, name: 'gw', scopes: ['ingest'], expiresAt: null }, { actor: 'test' }));
  }

  it('sends the ingested calls in list form to endpoints subscribed to call.completed only', async () => {
    const { client, gateway, trunkId } = await setup();
    const [calls, trunksOnly] = [path(), path()];
    const endpoint = (
      await client.post('/v1/webhook-endpoints', {
        url: receiver.script(calls, [200]),
        event_types: ['call.completed'],
      })
    ).body;
    await client.post('/v1/webhook-endpoints', {
      url: receiver.script(trunksOnly, [200]),
      event_types: ['trunk.created'],
    });
    const records = Array.from({ length: 150 }, () => call(trunkId, 300));
    await ingest(gateway, records);
    await receiver.waitFor(() => receiver.on(calls).length >= 2, SETTLE_DEADLINE_MS, 'two call.completed events');
    const received = receiver.on(calls);
    expect(received.map((r) => r.json.type)).toEqual(['call.completed', 'call.completed']);
    const sent = received.flatMap((r) => r.json.data.calls);
    expect(sent.map((c: any) => c.id).sort()).toEqual(records.map((r) => r.id).sort());
    // One function builds all three forms: a delivered call is the listed call and the detail's common part.
    const listed = new Map<string, object>();
    for (let cursor: string | null = null, first = true; first || cursor; first = false) {
      const page: { body: any } = await client.get(
        `/v1/calls?trunk_id=${trunkId}&limit=100${cursor ? `&cursor=${cursor}` : ''}`,
      );
      for (const c of page.body.calls) listed.set(c.id, c);
      cursor = page.body.pagination.next_cursor;
    }
    for (const c of sent) expect(c).toEqual(listed.get(c.id));
    const detail = (await client.get(`/v1/calls/${sent[0].id}`)).body;
    expect(Object.fromEntries(Object.keys(sent[0]).map((k) => [k, detail[k]]))).toEqual(sent[0]);
    expect(Object.keys(sent[0])).toEqual(CALL_LIST_ITEM_KEYS);
    for (const r of received) expect(verifyStandardWebhook(endpoint.secret, r.headers, r.body)).toBe(true);
    expect(receiver.on(trunksOnly)).toHaveLength(0);
  });

  it('appends no call events for an account without such an endpoint', async () => {
    const { client, gateway, trunkId } = await setup();
    const p = path();
    await client.post('/v1/webhook-endpoints', { url: receiver.script(p, [200]), event_types: ['trunk.deleted'] });
    await ingest(gateway, [call(trunkId, 100)]);
    const { EVENT_STORE } = await import('../../src/infrastructure/event-store/event-store.port');
    const store = app.running.app.get(EVENT_STORE);
    const all = await store.readAll({ after: null, maxCount: 100_000 });
    const accountEvents = all.filter(
      (e: any) => e.type === 'CallsCompleted' && (e.data as any).calls.some((c: any) => c.trunk_id === trunkId),
    );
    expect(accountEvents).toHaveLength(0);
  });

  it('validates alert rules', async () => {
    const { client } = await setup();
    const other = await setup();
    const bad = async (body: object, param: string) => {
      const response = await client.post('/v1/alert-rules', body);
      expectError(response, 400, 'missing_required_field');
      expect(response.body.error.param).toBe(param);
    };
    const good = { metric: 'p95_latency_ms', comparison: 'gt', threshold: 1000, window_minutes: 5 };
    await bad({ ...good, metric: 'p50_latency_ms' }, 'metric');
    await bad({ ...good, comparison: 'eq' }, 'comparison');
    await bad({ ...good, window_minutes: 4 }, 'window_minutes');
    await bad({ ...good, window_minutes: 1441 }, 'window_minutes');
    await bad({ ...good, threshold: 'high' }, 'threshold');
    await bad({ ...good, trunk_id: other.trunkId }, 'trunk_id');
    const created = await client.post('/v1/alert-rules', good);
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ id: expect.stringMatching(/^ar_/), ...good, trunk_id: null, state: 'ok' });
    expect((await client.get('/v1/alert-rules')).body.pagination.total).toBe(1);
    expectError(await other.client.get(`/v1/alert-rules/${created.body.id}`), 404, 'not_found');
    expect((await client.delete(`/v1/alert-rules/${created.body.id}`)).status).toBe(204);
    expectError(await client.get(`/v1/alert-rules/${created.body.id}`), 404, 'not_found');
  });

  it('triggers once when p95 latency goes over the threshold and resolves once when it comes back', async () => {
    const { client, gateway, trunkId } = await setup();
    const p = path();
    const endpoint = (
      await client.post('/v1/webhook-endpoints', {
        url: receiver.script(p, [200]),
        event_types: ['alert.triggered', 'alert.resolved'],
      })
    ).body;
    const rule = (
      await client.post('/v1/alert-rules', {
        name: 'slow agent',
        metric: 'p95_latency_ms',
        comparison: 'gt',
        threshold: 1000,
        window_minutes: 5,
        trunk_id: trunkId,
      })
    ).body;
    const slow = Array.from({ length: 20 }, () => call(trunkId, 2500));
    await ingest(gateway, slow);
    await receiver.waitFor(
      (all) => all.some((r) => r.path === p && r.json.type === 'alert.triggered'),
      SETTLE_DEADLINE_MS,
      'alert.triggered',
    );
    expect((await client.get(`/v1/alert-rules/${rule.id}`)).body).toMatchObject({
      state: 'triggered',
      last_value: expect.any(Number),
    });
    // Re-sent ids replace the slow calls: the window's p95 drops under the threshold.
    await ingest(
      gateway,
      slow.map((c) => call(trunkId, 200, c.id as string)),
    );
    await receiver.waitFor(
      (all) => all.some((r) => r.path === p && r.json.type === 'alert.resolved'),
      SETTLE_DEADLINE_MS,
      'alert.resolved',
    );
    // Several more evaluations: nothing more is sent.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const types = receiver.on(p).map((r) => r.json.type);
    expect(types).toEqual(['alert.triggered', 'alert.resolved']);
    const [triggered, resolved] = receiver.on(p);
    expect(triggered.json.data).toMatchObject({
      rule_id: rule.id,
      metric: 'p95_latency_ms',
      comparison: 'gt',
      threshold: 1000,
      window_minutes: 5,
      trunk_id: trunkId,
    });
    expect(triggered.json.data.value).toBeGreaterThan(1000);
    expect(resolved.json.data.value).toBeLessThanOrEqual(1000);
    expect(verifyStandardWebhook(endpoint.secret, resolved.headers, resolved.body)).toBe(true);
    expect((await client.get(`/v1/alert-rules/${rule.id}`)).body).toMatchObject({
      state: 'ok',
      resolved_at: expect.any(String),
    });
  });
});
