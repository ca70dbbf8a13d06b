import { ApiClient, ApiResponse, expectError } from '../support/http-client';
import { provisionAccountDirect, startTestApp, TEST_REDIS_URL, TestApp } from '../support/test-app';
import { customBody, elevenlabsBody, trunkBody } from '../support/trunk-requests';

/**
 * What a SIP gateway needs from the contract (docs/sip-gateway.md): a platform credential with
 * its own budget that looks up any account's trunk, the SIP route per provider, the allow list
 * as CIDRs, and the change feed a cached lookup is invalidated from.
 */
const ROUTES = {
  SIP_ROUTE_CUSTOM: 'sip:{sip_username}@127.0.0.1:5070;transport=udp',
  SIP_ROUTE_ELEVENLABS: 'sip:{elevenlabs_agent_id}@bridge.example.com;transport=tls',
};

async function gatewayKey(app: TestApp): Promise<ApiClient> {
  const issued = await app.admin.post('/v1/api-keys', { name: 'sip gateway', scopes: ['gateway'] });
  expect(issued.status).toBe(201);
  expect(issued.body).toMatchObject({ account_id: null, scopes: ['gateway'] });
  return app.admin.withKey(issued.body.key);
}

describe('the gateway credential, lookup and change feed', () => {
  let app: TestApp;
  let gateway: ApiClient;
  let alice: { client: ApiClient; accountId: string };
  let bob: { client: ApiClient; accountId: string };

  beforeAll(async () => {
    app = await startTestApp(ROUTES);
    gateway = await gatewayKey(app);
    alice = await provisionAccountDirect(app, ['full'], 'Alice');
    bob = await provisionAccountDirect(app, ['full'], 'Bob');
  });
  afterAll(() => app.stop());

  it('is issued by admin keys only, without an account, alone in its key', async () => {
    const withAccount = await app.admin.post('/v1/api-keys', {
      account_id: alice.accountId,
      name: 'x',
      scopes: ['gateway'],
    });
    expectError(withAccount, 400, 'missing_required_field');
    expectError(
      await app.admin.post('/v1/api-keys', { name: 'x', scopes: ['gateway', 'full'] }),
      400,
      'missing_required_field',
    );
    expectError(await alice.client.post('/v1/api-keys', { name: 'x', scopes: ['gateway'] }), 403, 'forbidden');
  });

  it("looks up any account's trunk, while account keys stay in their account", async () => {
    const a = (await alice.client.post('/v1/trunks', customBody())).body;
    const b = (await bob.client.post('/v1/trunks', trunkBody())).body;
    for (const trunk of [a, b]) {
      const found = await gateway.get(`/v1/gateway/trunks/${trunk.sip_username}`);
      expect(found.status).toBe(200);
      expect(found.body.trunk_id).toBe(trunk.id);
      expect(found.body.ha1).toMatch(/^[0-9a-f]{32}$/);
    }
    const elsewhere = await provisionAccountDirect(app, ['ingest'], 'Another gateway');
    expectError(await elsewhere.client.get(`/v1/gateway/trunks/${b.sip_username}`), 404, 'not_found');
    expect((await alice.client.get(`/v1/gateway/trunks/${a.sip_username}`)).status).toBe(200);
  });

  it('takes the key as a Basic user name with an empty password, as Kamailio sends it', async () => {
    const trunk = (await alice.client.post('/v1/trunks', customBody())).body;
    const key = (await app.admin.post('/v1/api-keys', { name: 'basic', scopes: ['gateway'] })).body.key;
    const basic = (credentials: string) => ({
      key: null,
      headers: { authorization: `Basic ${Buffer.from(credentials).toString('base64')}` },
    });
    const found = await app.anonymous.get(`/v1/gateway/trunks/${trunk.sip_username}`, basic(`${key}:`));
    expect(found.status).toBe(200);
    expectError(await app.anonymous.get(`/v1/gateway/changes`, basic(`${key}:not-empty`)), 401, 'unauthorized');
  });

  it('answers a clean 404 for unknown or malformed user names', async () => {
    for (const name of ['nobody-here', 'bad%20name', 'x'.repeat(65), '%27%3B--'])
      expectError(await gateway.get(`/v1/gateway/trunks/${name}`), 404, 'not_found');
  });

  it('cannot read or change any account', async () => {
    expectError(await gateway.get('/v1/trunks'), 403, 'forbidden');
    expectError(await gateway.get('/v1/calls'), 403, 'forbidden');
    expectError(await gateway.post('/v1/accounts', { name: 'x' }), 403, 'forbidden');
  });

  it('gives the SIP route of each provider and the allow list as CIDRs', async () => {
    const custom = (
      await alice.client.post(
        '/v1/trunks',
        customBody({ allowed_addresses: ['198.51.100.7', '203.0.113.0/24', '2001:DB8::1'] }),
      )
    ).body;
    const eleven = (await alice.client.post('/v1/trunks', elevenlabsBody({ elevenlabs_agent_id: 'agent_7x' }))).body;
    const openai = (await alice.client.post('/v1/trunks', trunkBody())).body;
    const lookup = async (trunk: { sip_username: string }) =>
      (await gateway.get(`/v1/gateway/trunks/${trunk.sip_username}`)).body;
    expect(await lookup(custom)).toMatchObject({
      sip_target: `sip:${custom.sip_username}@127.0.0.1:5070;transport=udp`,
      allowed_cidrs: ['198.51.100.7/32', '203.0.113.0/24', '2001:db8::1/128'],
    });
    expect(await lookup(eleven)).toMatchObject({
      sip_target: 'sip:agent_7x@bridge.example.com;transport=tls',
      allowed_cidrs: null,
    });
    expect((await lookup(openai)).sip_target).toBeNull();
  });

  it('lists every user name whose lookup changed since the last poll: rotation, deactivation, deletion', async () => {
    const first = await gateway.get('/v1/gateway/changes');
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ changes: [], flush: true });
    const trunk = (await alice.client.post('/v1/trunks', customBody())).body;
    const name = trunk.sip_username.toLowerCase();
    const poll = async (after: string): Promise<ApiResponse> => {
      const response = await gateway.get(`/v1/gateway/changes?after=${after}`);
      expect(response.body.flush).toBe(false);
      return response;
    };
    let cursor = (await poll(first.body.cursor)).body.cursor;
    for (const change of [
      () => alice.client.post(`/v1/trunks/${trunk.id}/rotate-password`),
      () => alice.client.patch(`/v1/trunks/${trunk.id}`, { status: 'inactive' }),
      () => alice.client.delete(`/v1/trunks/${trunk.id}`),
    ]) {
      // The cursor is taken before the change: the change must show up in the next poll.
      expect((await change()).status).toBeLessThan(300);
      const next = await poll(cursor);
      expect(next.body.changes).toContain(name);
      cursor = next.body.cursor;
    }
    expect((await gateway.get(`/v1/gateway/trunks/${trunk.sip_username}`)).body).toMatchObject({
      status: 'deleted',
      ha1: null,
    });
    expectError(await gateway.get('/v1/gateway/changes?after=yesterday'), 400, 'invalid_params');
  });

  it("shows an account's own key only its account's changes", async () => {
    const since = String(Date.now());
    const mine = (await alice.client.post('/v1/trunks', customBody())).body.sip_username.toLowerCase();
    const theirs = (await bob.client.post('/v1/trunks', customBody())).body.sip_username.toLowerCase();
    const key = await app.admin.post('/v1/api-keys', { account_id: alice.accountId, name: 'gw', scopes: ['ingest'] });
    const own = (await app.admin.withKey(key.body.key).get(`/v1/gateway/changes?after=${since}`)).body.changes;
    expect(own).toContain(mine);
    expect(own).not.toContain(theirs);
    expect((await gateway.get(`/v1/gateway/changes?after=${since}`)).body.changes).toEqual(
      expect.arrayContaining([mine, theirs]),
    );
  });
});

/** The gateway's own budget, with lookups of unknown users counted apart, on both gate adapters. */
describe.each([
  ['in memory', {}],
  ['on Redis', { REDIS_URL: TEST_REDIS_URL }],
])('the gateway budget (%s)', (_name, env) => {
  const ORDINARY = 10;
  const GATEWAY = 40;
  const UNKNOWN = 5;
  let app: TestApp;
  let gateway: ApiClient;
  let known: string;

  beforeAll(async () => {
    app = await startTestApp({
      ...env,
      RATE_LIMIT_PER_MINUTE: String(ORDINARY),
      GATEWAY_RATE_LIMIT_PER_MINUTE: String(GATEWAY),
      GATEWAY_UNKNOWN_LOOKUPS_PER_MINUTE: String(UNKNOWN),
    });
    gateway = await gatewayKey(app);
    const { client } = await provisionAccountDirect(app, ['full']);
    known = (await client.post('/v1/trunks', customBody())).body.sip_username;
  });
  afterAll(() => app.stop());

  it('floods of unknown users exhaust only their own bucket; known users keep their lookups', async () => {
    for (let attempt = 0; attempt < 3; attempt++) {
      const unknown: ApiResponse[] = [];
      for (let i = 0; i <= UNKNOWN; i++) unknown.push(await gateway.get(`/v1/gateway/trunks/nobody-${i}`));
      const knownLookups: ApiResponse[] = [];
      for (let i = 0; i < ORDINARY + 5; i++) knownLookups.push(await gateway.get(`/v1/gateway/trunks/${known}`));
      const all = [...unknown, ...knownLookups];
      // A minute boundary inside the burst resets the counters: try again in the next window.
      if (new Set(all.map((r) => r.headers['x-ratelimit-reset'])).size > 1) continue;
      expect(unknown.slice(0, UNKNOWN).map((r) => r.status)).toEqual(Array(UNKNOWN).fill(404));
      expectError(unknown[UNKNOWN], 429, 'rate_limit_exceeded');
      expect(unknown[0].headers['x-ratelimit-limit']).toBe(String(UNKNOWN));
      // More than an ordinary key's limit, all answered: the gateway's budget is its own.
      expect(knownLookups.map((r) => r.status)).toEqual(Array(ORDINARY + 5).fill(200));
      expect(knownLookups[0].headers['x-ratelimit-limit']).toBe(String(GATEWAY));
      return;
    }
    throw new Error('could not fit the burst in one window');
  });
});
