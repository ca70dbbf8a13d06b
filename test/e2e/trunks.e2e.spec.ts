import { createHash } from 'node:crypto';
import { ApiClient, expectError } from '../support/http-client';
import { provisionAccountDirect, startTestApp, TEST_REDIS_URL, TestApp } from '../support/test-app';
import { customBody, elevenlabsBody, trunkBody } from '../support/trunk-requests';

const SIP_DOMAIN = 'sip.e2e.test';
const ha1 = (user: string, password: string) =>
  createHash('md5').update(`${user}:${SIP_DOMAIN}:${password}`).digest('hex');

describe('trunks over HTTPS (Redis read models)', () => {
  let app: TestApp;
  let client: ApiClient;
  let other: ApiClient;
  let gateway: ApiClient;
  let accountId: string;

  beforeAll(async () => {
    app = await startTestApp({ REDIS_URL: TEST_REDIS_URL, SIP_DOMAIN });
    ({ client, accountId } = await provisionAccountDirect(app, ['full']));
    ({ client: other } = await provisionAccountDirect(app, ['full'], 'Other'));
    const ingestKey = await app.admin.post('/v1/api-keys', {
      account_id: accountId,
      name: 'gateway',
      scopes: ['ingest'],
    });
    gateway = app.admin.withKey(ingestKey.body.key);
  });
  afterAll(() => app.stop());

  describe('POST /v1/trunks', () => {
    it('creates a trunk and returns the contract fields, no secret', async () => {
      const body = trunkBody();
      const response = await client.post('/v1/trunks', body);
      expect(response.status).toBe(201);
      expect(response.body).toEqual({
        id: expect.stringMatching(/^conn_[A-Za-z0-9]{24}$/),
        name: body.name,
        status: 'active',
        ai_provider: 'openai',
        sip_username: body.sip_username,
        sip_endpoint: `${body.sip_username}@${SIP_DOMAIN}`,
        created_at: expect.stringMatching(/\.\d{3}Z$/),
      });
      expect(response.text).not.toContain(body.sip_password as string);
      expect(response.text).not.toContain(body.openai_api_key as string);
    });

    it('creates elevenlabs and custom trunks', async () => {
      expect((await client.post('/v1/trunks', elevenlabsBody())).status).toBe(201);
      expect((await client.post('/v1/trunks', customBody())).status).toBe(201);
    });

    it.each(['name', 'ai_provider', 'sip_username', 'sip_password'])(
      'answers a missing %s with 400 naming it',
      async (field) => {
        const body = trunkBody();
        delete body[field];
        const response = await client.post('/v1/trunks', body);
        expectError(response, 400, 'missing_required_field');
        expect(response.body.error.param).toBe(field);
      },
    );

    it.each(['has_underscore', 'ab', 'dots.not.allowed', 'x'.repeat(65), 'space here'])(
      'answers sip_username %p with 400 invalid_sip_username',
      async (sip_username) => {
        expectError(await client.post('/v1/trunks', trunkBody({ sip_username })), 400, 'invalid_sip_username');
      },
    );

    it('answers a short sip_password with 400 naming it', async () => {
      const response = await client.post('/v1/trunks', trunkBody({ sip_password: 'short' }));
      expectError(response, 400, 'missing_required_field');
      expect(response.body.error.param).toBe('sip_password');
    });

    it("requires the key of the chosen provider and refuses another provider's field", async () => {
      const missing = await client.post('/v1/trunks', trunkBody({ openai_api_key: undefined }));
      expect(missing.body.error).toMatchObject({ code: 'missing_required_field', param: 'openai_api_key' });
      const foreign = await client.post('/v1/trunks', trunkBody({ custom_endpoint: 'wss://x.example.com' }));
      expect(foreign.body.error).toMatchObject({ code: 'missing_required_field', param: 'custom_endpoint' });
      const agent = await client.post('/v1/trunks', elevenlabsBody({ elevenlabs_agent_id: undefined }));
      expect(agent.body.error).toMatchObject({ code: 'missing_required_field', param: 'elevenlabs_agent_id' });
    });

    it('refuses a custom endpoint that is not wss://', async () => {
      const response = await client.post('/v1/trunks', customBody({ custom_endpoint: 'https://agent.example.com' }));
      expect(response.body.error).toMatchObject({ code: 'missing_required_field', param: 'custom_endpoint' });
    });

    it('refuses bad optional fields, naming them', async () => {
      expect((await client.post('/v1/trunks', trunkBody({ vad: { threshold: 2 } }))).body.error).toMatchObject({
        param: 'vad.threshold',
      });
      expect(
        (await client.post('/v1/trunks', trunkBody({ allowed_addresses: ['10.0.0.0/33'] }))).body.error,
      ).toMatchObject({ param: 'allowed_addresses' });
      expect((await client.post('/v1/trunks', trunkBody({ ai_provider: 'acme' }))).body.error).toMatchObject({
        param: 'ai_provider',
      });
    });

    it('answers a provider key that fails validation with 401 invalid_provider_credentials', async () => {
      const response = await client.post('/v1/trunks', trunkBody({ openai_api_key: 'not-an-openai-key' }));
      expectError(response, 401, 'invalid_provider_credentials');
      expect(response.body.error.param).toBe('openai_api_key');
      expect(response.text).not.toContain('not-an-openai-key');
    });

    it('answers a duplicate sip_username with 409, across accounts and case', async () => {
      const body = trunkBody();
      expect((await client.post('/v1/trunks', body)).status).toBe(201);
      expectError(
        await other.post('/v1/trunks', trunkBody({ sip_username: (body.sip_username as string).toUpperCase() })),
        409,
        'conflict',
      );
    });

    it('answers a duplicate name in the account with 409, but allows it in another account', async () => {
      const body = trunkBody();
      expect((await client.post('/v1/trunks', body)).status).toBe(201);
      expectError(
        await client.post('/v1/trunks', trunkBody({ name: `  ${(body.name as string).toUpperCase()} ` })),
        409,
        'conflict',
      );
      expect((await other.post('/v1/trunks', trunkBody({ name: body.name }))).status).toBe(201);
    });
  });

  describe('GET /v1/trunks', () => {
    let reader: ApiClient;
    let ids: string[];

    beforeAll(async () => {
      const account = await provisionAccountDirect(app, ['full'], 'Lister');
      reader = account.client;
      ids = [];
      for (let i = 0; i < 5; i++) ids.push((await reader.post('/v1/trunks', trunkBody())).body.id);
      await reader.patch(`/v1/trunks/${ids[1]}`, { status: 'inactive' });
    });

    it('lists newest first with the exact total and stats', async () => {
      const response = await reader.get('/v1/trunks?limit=2');
      expect(response.status).toBe(200);
      expect(response.body.pagination).toEqual({
        limit: 2,
        offset: 0,
        total: 5,
        has_more: true,
        next_cursor: expect.any(String),
      });
      expect(response.body.trunks.map((t: { id: string }) => t.id)).toEqual([ids[4], ids[3]]);
      expect(response.body.trunks[0]).toEqual(
        expect.objectContaining({
          stats: { calls_today: 0, success_rate: 0, avg_latency_ms: 0 },
          updated_at: expect.any(String),
        }),
      );
      expect(response.body.trunks[0].sip_password).toBeUndefined();
    });

    it('pages with offset and sorts oldest first on request', async () => {
      const response = await reader.get('/v1/trunks?limit=2&offset=1&sort=created_at');
      expect(response.body.trunks.map((t: { id: string }) => t.id)).toEqual([ids[1], ids[2]]);
    });

    it('filters by status', async () => {
      const inactive = await reader.get('/v1/trunks?status=inactive');
      expect(inactive.body.trunks.map((t: { id: string }) => t.id)).toEqual([ids[1]]);
      expect(inactive.body.pagination.total).toBe(1);
      expect((await reader.get('/v1/trunks?status=active')).body.pagination.total).toBe(4);
    });

    it('answers bad parameters with 400 invalid_params', async () => {
      for (const q of ['limit=0', 'limit=101', 'status=paused', 'sort=name', 'offset=x'])
        expectError(await reader.get(`/v1/trunks?${q}`), 400, 'invalid_params');
    });

    it('walks by cursor in either order, each trunk once, while trunks are created and deleted', async () => {
      const { client: walker } = await provisionAccountDirect(app, ['full'], 'Walker');
      const made: string[] = [];
      for (let i = 0; i < 5; i++) made.push((await walker.post('/v1/trunks', trunkBody())).body.id);
      for (const sort of ['-created_at', 'created_at']) {
        const seen: string[] = [];
        let page = await walker.get(`/v1/trunks?limit=2&sort=${sort}`);
        for (let step = 0; ; step++) {
          seen.push(...page.body.trunks.map((t: { id: string }) => t.id));
          const cursor = page.body.pagination.next_cursor;
          if (!cursor) break;
          expect(page.body.pagination.has_more).toBe(true);
          // An offset walk would repeat an item after the newest-first insert; the cursor item itself is deleted.
          if (step === 0) made.push((await walker.post('/v1/trunks', trunkBody())).body.id);
          if (step === 1 && sort === 'created_at')
            expect((await walker.delete(`/v1/trunks/${seen[seen.length - 1]}`)).status).toBe(204);
          page = await walker.get(`/v1/trunks?limit=2&sort=${sort}&cursor=${cursor}`);
          expect(page.status).toBe(200);
        }
        expect(new Set(seen).size).toBe(seen.length);
        const before = sort === '-created_at' ? made.slice(0, 5).reverse() : made.filter((id) => seen.includes(id));
        expect(seen.filter((id) => before.includes(id))).toEqual(before);
        if (sort === 'created_at') expect(seen[seen.length - 1]).toBe(made[made.length - 1]);
      }
      const other = await walker.get('/v1/trunks?limit=1&sort=created_at');
      const mismatch = await walker.get(`/v1/trunks?limit=1&cursor=${other.body.pagination.next_cursor}`);
      expectError(mismatch, 400, 'invalid_params');
      expect(mismatch.body.error.reason).toBe('invalid_cursor');
      expectError(await walker.get('/v1/trunks?cursor=abc&offset=1'), 400, 'invalid_params');
    });

    it("shows no other account's trunks", async () => {
      const mine = await reader.get('/v1/trunks?limit=100');
      expect(mine.body.trunks.every((t: { id: string }) => ids.includes(t.id))).toBe(true);
    });
  });

  describe('one trunk: GET, PATCH, rotate, history, as_of, DELETE', () => {
    it('reads, renames, disables, rotates and deletes a trunk with every rule', async () => {
      const body = trunkBody({
        system_prompt: 'Be brief',
        vad: { threshold: 0.6, silence_duration_ms: 500 },
        allowed_addresses: ['203.0.113.0/24', '2001:db8::/32'],
      });
      const { id } = (await client.post('/v1/trunks', body)).body;
      const beforeRename = new Date();
      await new Promise((resolve) => setTimeout(resolve, 20));

      const detail = await client.get(`/v1/trunks/${id}`);
      expect(detail.body).toMatchObject({
        id,
        name: body.name,
        system_prompt: 'Be brief',
        vad: { threshold: 0.6, silence_duration_ms: 500 },
        allowed_addresses: ['203.0.113.0/24', '2001:db8::/32'],
        provider_settings: null,
        sip_endpoint: `${body.sip_username}@${SIP_DOMAIN}`,
      });
      expectError(await other.get(`/v1/trunks/${id}`), 404, 'not_found');

      const renamed = await client.patch(`/v1/trunks/${id}`, {
        name: 'Renamed line',
        status: 'inactive',
        system_prompt: null,
      });
      expect(renamed.status).toBe(200);
      expect(renamed.body).toEqual({ id, name: 'Renamed line', status: 'inactive', updated_at: expect.any(String) });
      expect((await client.get(`/v1/trunks/${id}`)).body).toMatchObject({
        name: 'Renamed line',
        status: 'inactive',
        system_prompt: null,
        vad: { threshold: 0.6 },
      });
      expect((await client.post('/v1/trunks', trunkBody({ name: body.name }))).status).toBe(201);

      const asOf = await client.get(`/v1/trunks/${id}?as_of=${beforeRename.toISOString()}`);
      expect(asOf.body).toMatchObject({ id, name: body.name, status: 'active', system_prompt: 'Be brief' });
      expectError(await client.get(`/v1/trunks/${id}?as_of=2001-01-01T00:00:00Z`), 404, 'not_found');
      expectError(await client.get(`/v1/trunks/${id}?as_of=yesterday`), 400, 'invalid_params');

      const foreign = await client.patch(`/v1/trunks/${id}`, { elevenlabs_agent_id: 'agent_x' });
      expect(foreign.body.error).toMatchObject({ code: 'missing_required_field', param: 'elevenlabs_agent_id' });
      expectError(await client.patch(`/v1/trunks/${id}`, { status: 'error' }), 400, 'missing_required_field');
      expectError(await client.patch(`/v1/trunks/${id}`, { name: null }), 400, 'missing_required_field');
      expectError(await other.patch(`/v1/trunks/${id}`, { name: 'Hijack' }), 404, 'not_found');

      const rotated = await client.post(`/v1/trunks/${id}/rotate-password`);
      expect(rotated.status).toBe(200);
      expect(rotated.body).toEqual({
        id,
        sip_username: body.sip_username,
        sip_password: expect.stringMatching(/^[A-Za-z0-9]{32}$/),
        rotated_at: expect.any(String),
      });
      const again = await client.post(`/v1/trunks/${id}/rotate-sip-password`);
      expect(again.body.sip_password).not.toBe(rotated.body.sip_password);

      const history = await client.get(`/v1/trunks/${id}/events`);
      expect(history.body.events.map((e: { type: string }) => e.type)).toEqual([
        'TrunkCreated',
        'TrunkUpdated',
        'SipPasswordRotated',
        'SipPasswordRotated',
      ]);
      expect(history.body.events[0]).toMatchObject({
        revision: 0,
        actor: expect.stringMatching(/^key_/),
        actor_name: 'test key',
        correlation_id: expect.any(String),
      });
      expect(history.body.events[0].data.sip_password).toBe('[redacted]');
      expect(history.text).not.toContain(rotated.body.sip_password);

      expect((await client.delete(`/v1/trunks/${id}`)).status).toBe(204);
      expectError(await client.get(`/v1/trunks/${id}`), 404, 'not_found');
      expectError(await client.patch(`/v1/trunks/${id}`, { name: 'Back' }), 404, 'not_found');
      expectError(await client.post(`/v1/trunks/${id}/rotate-password`), 404, 'not_found');
      expectError(await client.delete(`/v1/trunks/${id}`), 404, 'not_found');
      expect((await client.get(`/v1/trunks/${id}/events`)).body.events.at(-1).type).toBe('TrunkDeleted');
      expect(
        (await client.post('/v1/trunks', trunkBody({ sip_username: body.sip_username, name: 'Renamed line' }))).status,
      ).toBe(201);
    });

    it("names the keys that acted in a trunk's history, as they are now, and only the account's own", async () => {
      const { id } = (await client.post('/v1/trunks', trunkBody())).body;
      const issued = await app.admin.post('/v1/api-keys', {
        account_id: accountId,
        name: 'Billing sync',
        scopes: ['full'],
      });
      const billing = app.admin.withKey(issued.body.key);
      expect((await billing.patch(`/v1/trunks/${id}`, { name: 'Renamed by billing' })).status).toBe(200);
      expect((await app.admin.delete(`/v1/api-keys/${issued.body.id}`)).status).toBe(204);
      const { events } = (await client.get(`/v1/trunks/${id}/events`)).body;
      // A revoked key keeps its name; each event names the key that acted.
      expect(events.map((e: { actor: string; actor_name: string | null }) => [e.actor, e.actor_name])).toEqual([
        [expect.stringMatching(/^key_/), 'test key'],
        [issued.body.id, 'Billing sync'],
      ]);
      // Another account sees neither the history nor the names.
      expectError(await other.get(`/v1/trunks/${id}/events`), 404, 'not_found');
    });

    it('answers unknown trunk ids with 404 on every route', async () => {
      for (const response of [
        await client.get('/v1/trunks/conn_nope'),
        await client.patch('/v1/trunks/conn_nope', { name: 'x' }),
        await client.post('/v1/trunks/conn_nope/rotate-password'),
        await client.delete('/v1/trunks/conn_nope'),
        await client.get('/v1/trunks/conn_nope/events'),
      ])
        expectError(response, 404, 'not_found');
    });

    it('re-validates a replaced provider key', async () => {
      const { id } = (await client.post('/v1/trunks', trunkBody())).body;
      expectError(
        await client.patch(`/v1/trunks/${id}`, { openai_api_key: 'bad' }),
        401,
        'invalid_provider_credentials',
      );
      expect((await client.patch(`/v1/trunks/${id}`, { openai_api_key: `sk-proj-${'Z'.repeat(40)}` })).status).toBe(
        200,
      );
    });
  });

  describe('gateway lookup', () => {
    it('serves the trunk with its HA1, the new one right after a rotation, and says when it is inactive or deleted', async () => {
      const body = trunkBody({ system_prompt: 'Hi', provider_settings: { model: 'gpt-realtime', voice: 'alloy' } });
      const { id } = (await client.post('/v1/trunks', body)).body;
      const user = body.sip_username as string;
      const first = await gateway.get(`/v1/gateway/trunks/${user}`);
      expect(first.status).toBe(200);
      expect(first.body).toEqual({
        trunk_id: id,
        account_id: accountId,
        sip_username: user,
        status: 'active',
        ai_provider: 'openai',
        provider_settings: { model: 'gpt-realtime', voice: 'alloy' },
        system_prompt: 'Hi',
        allowed_addresses: null,
        allowed_cidrs: null,
        elevenlabs_agent_id: null,
        custom_endpoint: null,
        sip_target: null,
        ha1: ha1(user, body.sip_password as string),
      });
      const rotated = await client.post(`/v1/trunks/${id}/rotate-password`);
      const next = await gateway.get(`/v1/gateway/trunks/${user.toUpperCase()}`);
      expect(next.body.ha1).toBe(ha1(user, rotated.body.sip_password));
      await client.patch(`/v1/trunks/${id}`, { status: 'inactive' });
      expect((await gateway.get(`/v1/gateway/trunks/${user}`)).body.status).toBe('inactive');
      await client.delete(`/v1/trunks/${id}`);
      expect((await gateway.get(`/v1/gateway/trunks/${user}`)).body).toMatchObject({ status: 'deleted', ha1: null });
    });

    it("needs the ingest (or full) scope and stays within the key's account", async () => {
      const body = trunkBody();
      await other.post('/v1/trunks', body);
      expectError(await gateway.get(`/v1/gateway/trunks/${body.sip_username}`), 404, 'not_found');
      // full is everything of its account (decisions.md): the lookup, still within its account.
      expectError(await client.get(`/v1/gateway/trunks/${body.sip_username}`), 404, 'not_found');
      expect((await other.get(`/v1/gateway/trunks/${body.sip_username}`)).status).toBe(200);
      const key = await app.admin.post('/v1/api-keys', { account_id: accountId, name: 'ro', scopes: ['read'] });
      expectError(
        await app.admin.withKey(key.body.key).get(`/v1/gateway/trunks/${body.sip_username}`),
        403,
        'forbidden',
      );
    });
  });

  it('lets a read key list but not write', async () => {
    const key = await app.admin.post('/v1/api-keys', { account_id: accountId, name: 'ro', scopes: ['read'] });
    const reader = app.admin.withKey(key.body.key);
    expect((await reader.get('/v1/trunks')).status).toBe(200);
    expectError(await reader.post('/v1/trunks', trunkBody()), 403, 'forbidden');
  });
});
