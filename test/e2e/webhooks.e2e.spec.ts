import { SETTLE_DEADLINE_MS } from '../support/deadlines';
import { randomBytes } from 'node:crypto';
import { ApiClient, expectError } from '../support/http-client';
import { provisionAccountDirect, startTestApp, TestApp } from '../support/test-app';
import { trunkBody } from '../support/trunk-requests';
import { eventually, verifyStandardWebhook, WebhookReceiver } from './webhooks-support';

/**
 * Fast schedule: the first attempt at once, then retries 300 ms and 600 ms later (3 attempts). The
 * attempt timeout is generous: on a loaded machine the loopback receiver's answer can take seconds
 * (at a load of 30 on 2 cores, 700 ms made every attempt of an ordinary delivery time out), and only
 * the timeout case waits it out, once.
 */
const ENV = {
  WEBHOOK_ALLOW_PRIVATE: 'true',
  WEBHOOK_RETRY_SCHEDULE_MS: '300,600',
  WEBHOOK_TIMEOUT_MS: '10000',
  WEBHOOK_POLL_INTERVAL_MS: '50',
  ALERT_EVALUATION_INTERVAL_MS: '300',
};
const path = () => `/hook-${randomBytes(4).toString('hex')}`;

describe('webhooks over HTTPS against a local receiver', () => {
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

  const account = async () => {
    const { client, accountId } = await provisionAccountDirect(app);
    return { client, accountId };
  };
  const register = async (client: ApiClient, url: string, extra: object = {}) => {
    const response = await client.post('/v1/webhook-endpoints', { url, ...extra });
    expect(response.status).toBe(201);
    return response.body as { id: string; secret: string };
  };
  const deliveries = (client: ApiClient, endpointId: string) =>
    client.get(`/v1/webhook-endpoints/${endpointId}/deliveries?limit=100`).then((r) => r.body.deliveries as any[]);

  describe('endpoints', () => {
    it('creates an endpoint and shows its secret once', async () => {
      const { client } = await account();
      const created = await client.post('/v1/webhook-endpoints', {
        url: `${receiver.origin}/x`,
        description: 'ops',
        event_types: ['trunk.created'],
      });
      expect(created.status).toBe(201);
      expect(created.body).toMatchObject({
        id: expect.stringMatching(/^we_[A-Za-z0-9]{24}$/),
        url: `${receiver.origin}/x`,
        description: 'ops',
        event_types: ['trunk.created'],
        enabled: true,
        disabled_reason: null,
      });
      expect(created.body.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
      const got = await client.get(`/v1/webhook-endpoints/${created.body.id}`);
      expect(got.status).toBe(200);
      expect(got.body).not.toHaveProperty('secret');
      expect(got.text).not.toContain(created.body.secret.slice(6));
      const list = await client.get('/v1/webhook-endpoints');
      expect(list.body).toMatchObject({
        webhook_endpoints: [{ id: created.body.id }],
        pagination: { limit: 20, offset: 0, total: 1 },
      });
      const patched = await client.patch(`/v1/webhook-endpoints/${created.body.id}`, {
        event_types: null,
        enabled: false,
      });
      expect(patched.body).toMatchObject({ event_types: null, enabled: false });
      expect((await client.delete(`/v1/webhook-endpoints/${created.body.id}`)).status).toBe(204);
      expectError(await client.get(`/v1/webhook-endpoints/${created.body.id}`), 404, 'not_found');
      expect(app.logs.join('\n')).not.toContain(created.body.secret.slice(6));
    });

    it('refuses bad input with a 4xx envelope naming the field', async () => {
      const { client } = await account();
      const bad = async (body: object, param: string) => {
        const response = await client.post('/v1/webhook-endpoints', body);
        expectError(response, 400, 'missing_required_field');
        expect(response.body.error.param).toBe(param);
      };
      await bad({ url: 'http://hooks.example.com/x' }, 'url');
      await bad({ url: 'not a url' }, 'url');
      await bad({}, 'url');
      await bad({ url: 'https://hooks.example.com/x', event_types: ['trunk.exploded'] }, 'event_types');
      await bad({ url: 'https://hooks.example.com/x', event_types: [] }, 'event_types');
      await bad({ url: 'https://hooks.example.com/x', secret: 'mine' }, 'secret');
      expectError(await client.get('/v1/webhook-endpoints?limit=0'), 400, 'invalid_params');
      expectError(await client.post('/v1/webhook-endpoints/we_missing/rotate-secret'), 404, 'not_found');
      expectError(await client.post('/v1/webhook-deliveries/wd_missing/replay'), 404, 'not_found');
    });

    it('lets a read key list but not write, and an ingest key neither', async () => {
      const { client, accountId } = await account();
      await register(client, `${receiver.origin}/scopes`);
      const bus = await import('@nestjs/cqrs');
      const { IssueApiKey } = await import('../../src/api-keys/write/api-key.handlers');
      const issue = (scopes: string[]) =>
        app.running.app
          .get(bus.CommandBus)
          .execute(
            new IssueApiKey(
              { accountId, name: scopes[0], scopes: scopes as never, expiresAt: null },
              { actor: 'test' },
            ),
          );
      const reader = app.admin.withKey((await issue(['read'])).key);
      const gateway = app.admin.withKey((await issue(['ingest'])).key);
      expect((await reader.get('/v1/webhook-endpoints')).status).toBe(200);
      expectError(await reader.post('/v1/webhook-endpoints', { url: `${receiver.origin}/y` }), 403, 'forbidden');
      expectError(await gateway.get('/v1/webhook-endpoints'), 403, 'forbidden');
      expectError(await gateway.get('/v1/alert-rules'), 403, 'forbidden');
    });

    it('describes the routes in the OpenAPI document', async () => {
      const doc = (await app.anonymous.get('/v1/openapi.json')).body;
      for (const route of [
        '/webhook-endpoints',
        '/webhook-endpoints/{id}/rotate-secret',
        '/webhook-endpoints/{id}/test',
        '/webhook-endpoints/{id}/deliveries',
        '/webhook-deliveries/{id}/replay',
        '/alert-rules',
      ]) {
        expect(doc.paths).toHaveProperty([route]);
      }
      expect(doc.components.schemas.WebhookEndpointCreatedDto.properties).toHaveProperty('secret');
      expect(doc.components.schemas.WebhookEndpointDto.properties).not.toHaveProperty('secret');
      expect(doc.components.schemas.CreateAlertRuleRequestDto.properties.metric.enum).toEqual([
        'p95_latency_ms',
        'p99_latency_ms',
        'avg_ai_latency_ms',
        'success_rate',
        'avg_packet_loss_percent',
        'rejections',
      ]);
    });
  });

  describe('signed trunk events', () => {
    it('delivers each trunk event, signed, to every endpoint whose filter matches, without secrets', async () => {
      const { client } = await account();
      const [onlyCreated, all] = [path(), path()];
      const a = await register(client, receiver.script(onlyCreated, [200]), { event_types: ['trunk.created'] });
      const b = await register(client, receiver.script(all, [204]));
      const trunk = await client.post('/v1/trunks', trunkBody());
      const trunkId = trunk.body.id as string;
      await client.patch(`/v1/trunks/${trunkId}`, {
        system_prompt: 'Be brief',
        openai_api_key: `sk-test-${'z9Y8'.repeat(10)}`,
      });
      const rotated = await client.post(`/v1/trunks/${trunkId}/rotate-password`);
      await client.delete(`/v1/trunks/${trunkId}`);
      await receiver.waitFor(() => receiver.on(all).length >= 4, SETTLE_DEADLINE_MS, 'four trunk events');
      await new Promise((resolve) => setTimeout(resolve, 300));
      // Deliveries run concurrently and may arrive in any order (docs/webhooks.md); created_at
      // gives the order of the writes.
      const inOrder = [...receiver.on(all)].sort(
        (x, y) => Date.parse(x.json.created_at) - Date.parse(y.json.created_at),
      );
      expect(inOrder.map((r) => r.json.type)).toEqual([
        'trunk.created',
        'trunk.updated',
        'trunk.password_rotated',
        'trunk.deleted',
      ]);
      expect(new Set(inOrder.map((r) => r.json.created_at)).size).toBe(4);
      expect(receiver.on(onlyCreated).map((r) => r.json.type)).toEqual(['trunk.created']);
      for (const r of receiver.on(all)) expect(verifyStandardWebhook(b.secret, r.headers, r.body)).toBe(true);
      const [first] = receiver.on(onlyCreated);
      expect(verifyStandardWebhook(a.secret, first.headers, first.body)).toBe(true);
      expect(verifyStandardWebhook(b.secret, first.headers, first.body)).toBe(false);
      // The same event has the same id at every endpoint, so receivers can deduplicate.
      expect(first.json.id).toBe(inOrder[0].json.id);
      expect(first.headers['webhook-id']).toBe(first.json.id);
      expect(first.json).toMatchObject({
        id: expect.stringMatching(/^evt_/),
        type: 'trunk.created',
        created_at: expect.any(String),
        data: { id: trunkId, name: trunk.body.name, status: 'active' },
      });
      expect(inOrder[1].json.data).toMatchObject({
        id: trunkId,
        changed_fields: ['openai_api_key', 'system_prompt'],
        changes: { system_prompt: 'Be brief' },
      });
      const bodies = receiver
        .on(all)
        .map((r) => r.body)
        .join('\n');
      for (const secret of ['correct-horse-battery', rotated.body.sip_password, 'z9Y8z9Y8', 'sk-test-', '"ct"'])
        expect(bodies).not.toContain(secret);
      const listed = await deliveries(client, b.id);
      expect(listed.map((d) => d.status)).toEqual(['succeeded', 'succeeded', 'succeeded', 'succeeded']);
      expect(listed[0]).toMatchObject({
        id: expect.stringMatching(/^wd_/),
        endpoint_id: b.id,
        attempts: 1,
        last_response_status: 204,
        next_attempt_at: null,
      });
    });

    it('signs with both secrets for a day after a rotation, and each verifies', async () => {
      const { client } = await account();
      const p = path();
      const endpoint = await register(client, receiver.script(p, [200]));
      const rotated = await client.post(`/v1/webhook-endpoints/${endpoint.id}/rotate-secret`);
      expect(rotated.status).toBe(200);
      expect(rotated.body.secret).toMatch(/^whsec_/);
      expect(rotated.body.secret).not.toBe(endpoint.secret);
      expect(Date.parse(rotated.body.previous_secret_expires_at) - Date.parse(rotated.body.rotated_at)).toBe(
        24 * 3_600_000,
      );
      const ping = await client.post(`/v1/webhook-endpoints/${endpoint.id}/test`);
      expect(ping.status).toBe(202);
      expect(ping.body).toMatchObject({ event_type: 'ping', status: 'pending', endpoint_id: endpoint.id });
      await receiver.waitFor(() => receiver.on(p).length >= 1);
      const [received] = receiver.on(p);
      expect(received.json).toMatchObject({ id: ping.body.event_id, type: 'ping' });
      expect(received.headers['webhook-signature'].split(' ')).toHaveLength(2);
      expect(verifyStandardWebhook(rotated.body.secret, received.headers, received.body)).toBe(true);
      expect(verifyStandardWebhook(endpoint.secret, received.headers, received.body)).toBe(true);
      expect((await client.get(`/v1/webhook-endpoints/${endpoint.id}`)).body.secret_rotated_at).toBe(
        rotated.body.rotated_at,
      );
    });
  });

  describe('retries, disabling and replay', () => {
    it('retries after 500s and delivers on the schedule', async () => {
      const { client } = await account();
      const p = path();
      const endpoint = await register(client, receiver.script(p, [500, 500, 200]));
      const ping = (await client.post(`/v1/webhook-endpoints/${endpoint.id}/test`)).body;
      const done = await eventually(
        () => deliveries(client, endpoint.id),
        (list) => list[0]?.status === 'succeeded',
      );
      expect(done[0]).toMatchObject({ id: ping.id, attempts: 3, last_response_status: 200 });
      expect(done[0].attempt_history.map((a: any) => a.response_status)).toEqual([500, 500, 200]);
      const times = receiver.on(p).map((r) => r.json.id);
      expect(times).toEqual([ping.event_id, ping.event_id, ping.event_id]);
      const gaps = done[0].attempt_history.map((a: any) => Date.parse(a.attempted_at));
      expect(gaps[1] - gaps[0]).toBeGreaterThanOrEqual(300);
      expect(gaps[2] - gaps[1]).toBeGreaterThanOrEqual(600);
    });

    it('counts a timeout as a failed attempt and retries it', async () => {
      const { client } = await account();
      const p = path();
      const endpoint = await register(client, receiver.script(p, ['hang', 200]));
      await client.post(`/v1/webhook-endpoints/${endpoint.id}/test`);
      const done = await eventually(
        () => deliveries(client, endpoint.id),
        (list) => list[0]?.status === 'succeeded',
      );
      expect(done[0].attempt_history).toEqual([
        expect.objectContaining({ attempt: 1, response_status: null, error: expect.stringContaining('timed out') }),
        expect.objectContaining({ attempt: 2, response_status: 200, error: null }),
      ]);
    });

    it('disables the endpoint when the receiver answers 410 Gone', async () => {
      const { client } = await account();
      const endpoint = await register(client, receiver.script(path(), [410]));
      await client.post(`/v1/webhook-endpoints/${endpoint.id}/test`);
      const disabled = await eventually(
        () => client.get(`/v1/webhook-endpoints/${endpoint.id}`).then((r) => r.body),
        (e) => e.enabled === false,
      );
      expect(disabled.disabled_reason).toContain('410 Gone');
      const [delivery] = await deliveries(client, endpoint.id);
      expect(delivery).toMatchObject({
        status: 'failed',
        failure_reason: 'endpoint_gone',
        attempts: 1,
        last_response_status: 410,
      });
      expectError(await client.post(`/v1/webhook-endpoints/${endpoint.id}/test`), 409, 'conflict');
    });

    it('fails a delivery after the whole schedule, disables the endpoint with the reason, and replays after re-enabling', async () => {
      const { client } = await account();
      const p = path();
      const endpoint = await register(client, receiver.script(p, [503]));
      const ping = (await client.post(`/v1/webhook-endpoints/${endpoint.id}/test`)).body;
      const disabled = await eventually(
        () => client.get(`/v1/webhook-endpoints/${endpoint.id}`).then((r) => r.body),
        (e) => e.enabled === false,
      );
      expect(disabled.disabled_reason).toMatch(/failed all 3 attempts, the last with HTTP 503/);
      const [failed] = await deliveries(client, endpoint.id);
      expect(failed).toMatchObject({
        status: 'failed',
        failure_reason: 'exhausted',
        attempts: 3,
        next_attempt_at: null,
      });
      expect(
        (await client.get(`/v1/webhook-endpoints/${endpoint.id}/deliveries?status=failed`)).body.pagination.total,
      ).toBe(1);
      expectError(await client.post(`/v1/webhook-deliveries/${ping.id}/replay`), 409, 'conflict');

      receiver.script(p, [200]);
      const enabled = await client.patch(`/v1/webhook-endpoints/${endpoint.id}`, { enabled: true });
      expect(enabled.body).toMatchObject({ enabled: true, disabled_reason: null });
      const replayed = await client.post(`/v1/webhook-deliveries/${ping.id}/replay`);
      expect(replayed.status).toBe(202);
      expect(replayed.body).toMatchObject({ id: ping.id, status: 'pending', failure_reason: null });
      const done = await eventually(
        () => deliveries(client, endpoint.id),
        (list) => list[0]?.status === 'succeeded',
      );
      expect(done[0]).toMatchObject({ attempts: 4, last_response_status: 200 });
      const last = receiver.on(p).at(-1)!;
      expect(last.json.id).toBe(ping.event_id);
      expect(verifyStandardWebhook(endpoint.secret, last.headers, last.body)).toBe(true);
    });

    it("hides another account's deliveries and endpoints", async () => {
      const mine = await account();
      const theirs = await account();
      const endpoint = await register(mine.client, receiver.script(path(), [200]));
      const ping = (await mine.client.post(`/v1/webhook-endpoints/${endpoint.id}/test`)).body;
      expectError(await theirs.client.get(`/v1/webhook-endpoints/${endpoint.id}/deliveries`), 404, 'not_found');
      expectError(await theirs.client.post(`/v1/webhook-deliveries/${ping.id}/replay`), 404, 'not_found');
      expectError(
        await theirs.client.patch(`/v1/webhook-endpoints/${endpoint.id}`, { enabled: false }),
        404,
        'not_found',
      );
    });
  });
});
