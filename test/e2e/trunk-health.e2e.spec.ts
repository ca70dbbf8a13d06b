import { randomBytes } from 'node:crypto';
import { ApiClient } from '../support/http-client';
import { provisionAccountDirect, startTestApp, TestApp } from '../support/test-app';
import { trunkBody } from '../support/trunk-requests';
import { eventually, WebhookReceiver } from './webhooks-support';

const ENV = { WEBHOOK_ALLOW_PRIVATE: 'true', WEBHOOK_POLL_INTERVAL_MS: '50', PROVIDER_VALIDATION: 'format' };

describe('trunk health: from failing records to error and back', () => {
  let app: TestApp;
  let client: ApiClient;
  let gateway: ApiClient;
  let trunk: { id: string; sip_username: string };
  const receiver = new WebhookReceiver();
  let minute = 0;

  /** A call a minute after the previous one (start times in the last hour, in order). */
  const record = (fields: Record<string, unknown>) => ({
    id: `call_${randomBytes(8).toString('hex')}`,
    trunk_id: trunk.id,
    from: '+14155550100',
    to: '+14155550199',
    start_time: new Date(Date.now() - 60 * 60_000 + ++minute * 60_000).toISOString(),
    duration_seconds: 0,
    ...fields,
  });
  const unreachable = () => record({ status: 'failed', sip_code: 503, failure_class: 'agent_unreachable' });
  const busy = () => record({ status: 'failed', sip_code: 486 });
  const answered = () => record({ status: 'connected', duration_seconds: 42, sip_code: 200 });
  const ingest = async (...records: object[]) => {
    const response = await client.post('/v1/ingest/calls', records);
    expect(response.body).toEqual({ accepted: records.length, rejected: [] });
  };
  const statusOf = async () => (await client.get(`/v1/trunks/${trunk.id}`)).body.status as string;
  const historyTypes = async () =>
    ((await client.get(`/v1/trunks/${trunk.id}/events`)).body.events as { type: string }[]).map((e) => e.type);

  beforeAll(async () => {
    await receiver.start();
    app = await startTestApp({ ...ENV, WEBHOOK_CA_FILE: receiver.caFile });
    client = (await provisionAccountDirect(app, ['full'])).client;
    gateway = app.admin.withKey((await app.admin.post('/v1/api-keys', { name: 'gw', scopes: ['gateway'] })).body.key);
    trunk = (await client.post('/v1/trunks', trunkBody())).body;
    const hook = await client.post('/v1/webhook-endpoints', {
      url: receiver.script('/health', [200]),
      event_types: ['trunk.status_changed'],
    });
    expect(hook.status).toBe(201);
  });
  afterAll(async () => {
    await app?.stop();
    await receiver.stop();
  });

  it('stays active while fewer than 5 consecutive calls failed for the agent, or one failed for the caller', async () => {
    await ingest(unreachable(), unreachable(), busy(), unreachable(), unreachable());
    await ingest(unreachable());
    // Each check runs after its batch is stored; a later check sees this one's batch too.
    await ingest(answered());
    expect(await statusOf()).toBe('active');
    expect(await historyTypes()).not.toContain('TrunkHealthChanged');
  });

  it('goes to error after 5 consecutive agent failures, through the decider, with its webhook; still routed', async () => {
    await ingest(unreachable(), unreachable());
    await ingest(unreachable(), record({ status: 'failed', sip_code: 408, failure_class: 'agent_timeout' }));
    await ingest(unreachable());
    await eventually(statusOf, (status) => status === 'error');
    const history = (await client.get(`/v1/trunks/${trunk.id}/events`)).body.events;
    const change = history.find((e: { type: string }) => e.type === 'TrunkHealthChanged');
    expect(change.data).toMatchObject({
      status: 'error',
      reason: 'the last 5 calls failed (agent_timeout, agent_unreachable)',
    });
    expect(change.data.call_ids).toHaveLength(5);
    // A system actor has no key, so no name.
    expect(change).toMatchObject({ actor: 'system:trunk-health', actor_name: null });
    const before = await client.get(
      `/v1/trunks/${trunk.id}?as_of=${new Date(Date.parse(change.recorded_at) - 1).toISOString()}`,
    );
    expect(before.body.status).toBe('active');
    expect((await client.get(`/v1/trunks?status=error`)).body.trunks.map((t: { id: string }) => t.id)).toEqual([
      trunk.id,
    ]);
    const audit = await client.get(`/v1/audit-events?type=TrunkHealthChanged&resource_id=${trunk.id}`);
    expect(audit.body.events.map((e: { actor: { key_id: string | null } }) => e.actor.key_id)).toEqual([
      'system:trunk-health',
    ]);
    await receiver.waitFor((all) => all.some((r) => r.json.data.status === 'error'), undefined, 'trunk.status_changed');
    expect(receiver.on('/health')[0].json).toMatchObject({
      type: 'trunk.status_changed',
      data: { id: trunk.id, status: 'error', cause: 'health' },
    });
    // The gateway keeps routing it: only an answered call can show it works again.
    const lookup = await gateway.get(`/v1/gateway/trunks/${trunk.sip_username}`);
    expect(lookup.body.status).toBe('active');
  });

  it('comes back to active when a call is answered', async () => {
    await ingest(unreachable());
    await ingest(answered());
    await eventually(statusOf, (status) => status === 'active');
    const changes = ((await client.get(`/v1/trunks/${trunk.id}/events`)).body.events as { type: string; data: any }[])
      .filter((e) => e.type === 'TrunkHealthChanged')
      .map((e) => e.data.status);
    expect(changes).toEqual(['error', 'active']);
    await receiver.waitFor((all) => all.some((r) => r.json.data.status === 'active'), undefined, 'recovery');
  });

  it('leaves an inactive trunk as its operator set it', async () => {
    expect((await client.patch(`/v1/trunks/${trunk.id}`, { status: 'inactive' })).status).toBe(200);
    await ingest(unreachable(), unreachable(), unreachable(), unreachable(), unreachable());
    await ingest(answered());
    expect(await statusOf()).toBe('inactive');
    await receiver.waitFor((all) => all.some((r) => r.json.data.status === 'inactive'), undefined, 'operator change');
    expect(receiver.on('/health').map((r) => [r.json.data.status, r.json.data.cause])).toEqual([
      ['error', 'health'],
      ['active', 'health'],
      ['inactive', 'operator'],
    ]);
  });
});
