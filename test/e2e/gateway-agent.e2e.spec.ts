import { ApiClient, expectError } from '../support/http-client';
import { provisionAccountDirect, startTestApp, TestApp } from '../support/test-app';
import { customBody, ELEVENLABS_KEY, elevenlabsBody, OPENAI_KEY, trunkBody } from '../support/trunk-requests';

/**
 * The media gateway's agent lookup (docs/sip-gateway.md, "The agent lookup"): provider keys in clear for the
 * platform's gateway key only, every answer an AgentCredentialsRead event in the account's audit
 * log, and nothing for any other key.
 */
describe('GET /v1/gateway/trunks/{sip_username}/agent', () => {
  let app: TestApp;
  let gateway: ApiClient;
  let gatewayKeyId: string;
  let alice: { client: ApiClient; accountId: string };

  beforeAll(async () => {
    app = await startTestApp({ PROVIDER_VALIDATION: 'format' });
    const issued = await app.admin.post('/v1/api-keys', { name: 'media gateway', scopes: ['gateway'] });
    expect(issued.status).toBe(201);
    gateway = app.admin.withKey(issued.body.key);
    gatewayKeyId = issued.body.id;
    alice = await provisionAccountDirect(app, ['full'], 'Alice');
  }, 120_000);
  afterAll(() => app.stop());

  /** The account's AgentCredentialsRead events about one trunk (the audit log may show a commit a moment late). */
  async function reads(client: ApiClient, trunkId: string, atLeast: number) {
    const deadline = Date.now() + 30_000;
    for (;;) {
      const listed = await client.get(
        `/v1/audit-events?type=AgentCredentialsRead&resource_type=agent_access&resource_id=${trunkId}&limit=100`,
      );
      expect(listed.status).toBe(200);
      if (listed.body.events.length >= atLeast || Date.now() > deadline) return listed.body.events;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }

  it("answers an openai trunk's key in clear with its agent settings, and audits the read", async () => {
    const settings = {
      system_prompt: 'Be brief',
      vad: { threshold: 0.6, silence_duration_ms: 700 },
      provider_settings: { model: 'gpt-realtime', voice: 'alloy' },
    };
    const trunk = (await alice.client.post('/v1/trunks', trunkBody(settings))).body;
    const answer = await gateway.get(`/v1/gateway/trunks/${trunk.sip_username.toUpperCase()}/agent`);
    expect(answer.status).toBe(200);
    expect(answer.headers['cache-control']).toBe('no-store');
    expect(answer.body).toEqual({
      trunk_id: trunk.id,
      account_id: alice.accountId,
      sip_username: trunk.sip_username,
      status: 'active',
      ai_provider: 'openai',
      custom_endpoint: null,
      openai_api_key: OPENAI_KEY,
      elevenlabs_api_key: null,
      elevenlabs_agent_id: null,
      ...settings,
      read_at: expect.any(String),
      audit_event_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
    });

    const [event] = await reads(alice.client, trunk.id, 1);
    expect(event).toMatchObject({
      id: answer.body.audit_event_id,
      type: 'AgentCredentialsRead',
      resource_type: 'agent_access',
      resource_id: trunk.id,
      actor: { key_id: gatewayKeyId, request_id: answer.headers['x-request-id'] },
      data: {
        trunk_id: trunk.id,
        account_id: alice.accountId,
        ai_provider: 'openai',
        disclosed: ['openai_api_key'],
        read_at: answer.body.read_at,
      },
    });
    expect(JSON.stringify(event)).not.toContain(OPENAI_KEY);
    const verified = await alice.client.get('/v1/audit-events/verify');
    expect(verified.body).toMatchObject({ verified: true });
  });

  it('answers elevenlabs and custom trunks with their own fields, one audit event per read', async () => {
    const eleven = (await alice.client.post('/v1/trunks', elevenlabsBody())).body;
    const custom = (await alice.client.post('/v1/trunks', customBody())).body;
    const e = await gateway.get(`/v1/gateway/trunks/${eleven.sip_username}/agent`);
    expect(e.body).toMatchObject({
      ai_provider: 'elevenlabs',
      elevenlabs_api_key: ELEVENLABS_KEY,
      elevenlabs_agent_id: 'agent_123',
      openai_api_key: null,
      custom_endpoint: null,
      vad: null,
      provider_settings: null,
    });
    for (let i = 0; i < 3; i++) {
      const c = await gateway.get(`/v1/gateway/trunks/${custom.sip_username}/agent`);
      expect(c.body).toMatchObject({
        ai_provider: 'custom',
        custom_endpoint: 'wss://agent.example.com/ws',
        openai_api_key: null,
        elevenlabs_api_key: null,
      });
    }
    const customReads = await reads(alice.client, custom.id, 3);
    expect(customReads).toHaveLength(3);
    expect(customReads.every((r: { data: { disclosed: string[] } }) => r.data.disclosed.length === 0)).toBe(true);
    expect((await reads(alice.client, eleven.id, 1))[0].data.disclosed).toEqual(['elevenlabs_api_key']);
  });

  it('follows changes: a replaced key, a deactivation (409), a deletion (404); refusals record nothing', async () => {
    const trunk = (await alice.client.post('/v1/trunks', trunkBody())).body;
    const replaced = `sk-test-${'Zz9'.repeat(12)}`;
    expect((await alice.client.patch(`/v1/trunks/${trunk.id}`, { openai_api_key: replaced })).status).toBe(200);
    expect((await gateway.get(`/v1/gateway/trunks/${trunk.sip_username}/agent`)).body.openai_api_key).toBe(replaced);
    await alice.client.patch(`/v1/trunks/${trunk.id}`, { status: 'inactive' });
    expectError(await gateway.get(`/v1/gateway/trunks/${trunk.sip_username}/agent`), 409, 'conflict');
    await alice.client.delete(`/v1/trunks/${trunk.id}`);
    expectError(await gateway.get(`/v1/gateway/trunks/${trunk.sip_username}/agent`), 404, 'not_found');
    for (const name of ['nobody-here', 'bad%20name', 'x'.repeat(65), '%27%3B--'])
      expectError(await gateway.get(`/v1/gateway/trunks/${name}/agent`), 404, 'not_found');
    // Give a late commit the time to show, then count: only the one answered read is recorded.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await reads(alice.client, trunk.id, 1)).toHaveLength(1);
  });

  it('refuses every key but a gateway key: no secret for admin, full, ingest, read or audit keys', async () => {
    const trunk = (await alice.client.post('/v1/trunks', trunkBody())).body;
    const path = `/v1/gateway/trunks/${trunk.sip_username}/agent`;
    const keys: ApiClient[] = [app.admin, alice.client];
    for (const scopes of [['ingest'], ['read'], ['audit'], ['full']] as const) {
      const issued = await app.admin.post('/v1/api-keys', { account_id: alice.accountId, name: 'k', scopes });
      keys.push(app.admin.withKey(issued.body.key));
    }
    for (const client of keys) {
      const refused = await client.get(path);
      expectError(refused, 403, 'forbidden');
      expect(refused.text).not.toContain(OPENAI_KEY);
    }
    expectError(await app.anonymous.get(path), 401, 'missing_authentication');
    expect(await reads(alice.client, trunk.id, 0)).toHaveLength(0);
  });

  it('never writes a provider key to the logs', () => {
    const logs = app.logs.join('\n');
    expect(logs.length).toBeGreaterThan(100);
    expect(logs).not.toContain(OPENAI_KEY);
    expect(logs).not.toContain(ELEVENLABS_KEY);
  });
});
