import { until } from '../support/free-port';
import { SETTLE_DEADLINE_MS } from '../support/deadlines';
import { expectError } from '../support/http-client';
import { provisionAccount, startTestApp, TEST_REDIS_URL, TestApp } from '../support/test-app';

/** Authentication, scopes, environments, revocation and expiry, on Redis read models. */
describe('authentication and scopes over HTTPS', () => {
  let app: TestApp;

  beforeAll(async () => {
    app = await startTestApp({ REDIS_URL: TEST_REDIS_URL });
  });
  afterAll(() => app.stop());

  it('answers 401 missing_authentication without an Authorization header', async () => {
    expectError(await app.anonymous.get('/v1/accounts'), 401, 'missing_authentication');
  });

  it('answers 401 unauthorized for a header that is not Bearer', async () => {
    expectError(
      await app.anonymous.get('/v1/accounts', { headers: { authorization: `Basic ${app.adminKey}` } }),
      401,
      'unauthorized',
    );
  });

  it('answers 401 unauthorized for a well-formed key that does not exist', async () => {
    expectError(await app.anonymous.get('/v1/accounts', { key: `sk_live_${'A'.repeat(32)}` }), 401, 'unauthorized');
  });

  it('answers 401 unauthorized for garbage in place of a key', async () => {
    expectError(await app.anonymous.get('/v1/accounts', { key: 'not-a-key' }), 401, 'unauthorized');
  });

  it('answers 401 unauthorized for a test key against the live service', async () => {
    const response = await app.anonymous.get('/v1/accounts', { key: `sk_test_${'A'.repeat(32)}` });
    expectError(response, 401, 'unauthorized');
    expect(response.body.error.message).toMatch(/test/);
  });

  it('lets the admin key create an account and list it', async () => {
    const created = await app.admin.post('/v1/accounts', { name: 'Listed Co' });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.stringMatching(/^acct_[A-Za-z0-9]{24}$/),
      name: 'Listed Co',
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
    });
    const list = await app.admin.get('/v1/accounts?limit=100');
    expect(list.status).toBe(200);
    expect(list.body.accounts.map((a: { id: string }) => a.id)).toContain(created.body.id);
    expect(list.body.pagination).toEqual({
      limit: 100,
      offset: 0,
      total: expect.any(Number),
      has_more: false,
      next_cursor: null,
    });
  });

  it("walks accounts and an account's keys by cursor, each once, while more are created", async () => {
    const { accountId } = await provisionAccount(app, ['full']);
    const keys: string[] = [];
    for (let i = 0; i < 4; i++)
      keys.push(
        (await app.admin.post('/v1/api-keys', { account_id: accountId, name: `k${i}`, scopes: ['read'] })).body.id,
      );
    const walk = async (first: string, items: (body: any) => { id: string }[], during: () => Promise<void>) => {
      const seen: string[] = [];
      let page = await app.admin.get(first);
      for (let step = 0; ; step++) {
        expect(page.status).toBe(200);
        seen.push(...items(page.body).map((item) => item.id));
        const cursor = page.body.pagination.next_cursor;
        if (!cursor) break;
        expect(page.body.pagination.has_more).toBe(true);
        // Newest first: an offset walk would show the last item of this page again after an insert.
        if (step === 0) await during();
        page = await app.admin.get(`${first}&cursor=${cursor}`);
      }
      return seen;
    };
    const keyWalk = await walk(
      `/v1/api-keys?account_id=${accountId}&limit=2`,
      (body) => body.api_keys,
      async () => {
        await app.admin.post('/v1/api-keys', { account_id: accountId, name: 'late', scopes: ['read'] });
      },
    );
    expect(new Set(keyWalk).size).toBe(keyWalk.length);
    expect(keyWalk.filter((id) => keys.includes(id))).toEqual([...keys].reverse());
    const accountWalk = await walk(
      '/v1/accounts?limit=3',
      (body) => body.accounts,
      async () => {
        await app.admin.post('/v1/accounts', { name: 'Created mid-walk' });
      },
    );
    expect(new Set(accountWalk).size).toBe(accountWalk.length);
    expect(accountWalk).toContain(accountId);
    // A cursor of one account's keys does not serve another's list.
    const page = await app.admin.get(`/v1/api-keys?account_id=${accountId}&limit=1`);
    const other = await app.admin.get(`/v1/api-keys?limit=1&cursor=${page.body.pagination.next_cursor}`);
    expectError(other, 400, 'invalid_params');
    expect(other.body.error.reason).toBe('invalid_cursor');
  });

  it('issues a key shown once, in the documented format, and lists it without the key', async () => {
    const { accountId, keyId, key } = await provisionAccount(app, ['full']);
    expect(key).toMatch(/^sk_live_[A-Za-z0-9]{32}$/);
    const list = await app.admin.get(`/v1/api-keys?account_id=${accountId}`);
    expect(list.status).toBe(200);
    expect(list.text).not.toContain(key);
    expect(list.body.api_keys).toEqual([
      expect.objectContaining({
        id: keyId,
        account_id: accountId,
        scopes: ['full'],
        environment: 'live',
        key_hint: key.slice(-4),
        revoked_at: null,
      }),
    ]);
  });

  it('refuses a key for an account that does not exist with 404', async () => {
    expectError(
      await app.admin.post('/v1/api-keys', { account_id: 'acct_missing', name: 'x', scopes: ['full'] }),
      404,
      'not_found',
    );
  });

  it('forbids a full key the admin endpoints', async () => {
    const { client } = await provisionAccount(app, ['full']);
    expectError(await client.get('/v1/accounts'), 403, 'forbidden');
    expectError(await client.post('/v1/api-keys', { name: 'x', scopes: ['admin'] }), 403, 'forbidden');
  });

  it('lets a read key GET but forbids writes', async () => {
    const { client } = await provisionAccount(app, ['read']);
    expectError(await client.get('/v1/does-not-exist'), 404, 'not_found');
    expectError(await client.post('/v1/trunks', { a: 1 }), 403, 'forbidden');
    // A route that does not exist has no scope to lack: 404 for every key (issue 17).
    expectError(await client.post('/v1/anything', { a: 1 }), 404, 'not_found');
  });

  it('confines an ingest key to the ingest endpoints', async () => {
    const { client } = await provisionAccount(app, ['ingest']);
    expectError(await client.get('/v1/trunks'), 403, 'forbidden');
    expectError(await client.get('/v1/accounts'), 403, 'forbidden');
  });

  it('forbids the admin key the account endpoints', async () => {
    expectError(await app.admin.get('/v1/trunks'), 403, 'forbidden');
  });

  it('rejects a revoked key on the very next request', async () => {
    const { client, keyId } = await provisionAccount(app, ['read']);
    expectError(await client.get('/v1/nothing-here'), 404, 'not_found');
    const revoked = await app.admin.delete(`/v1/api-keys/${keyId}`);
    expect(revoked.status).toBe(204);
    const after = await client.get('/v1/nothing-here');
    expectError(after, 401, 'unauthorized');
    expect(after.body.error.message).toMatch(/revoked/);
    expect((await app.admin.delete(`/v1/api-keys/${keyId}`)).status).toBe(204);
  });

  it('answers 404 for revoking a key that does not exist', async () => {
    expectError(await app.admin.delete('/v1/api-keys/key_doesnotexist'), 404, 'not_found');
  });

  it('rejects a key once its expiry has passed', async () => {
    const account = await app.admin.post('/v1/accounts', { name: 'Expiring' });
    // Far enough ahead for a busy machine; then the app's clock is moved past it (no waiting).
    const expiresAt = new Date(app.clock.now().getTime() + SETTLE_DEADLINE_MS).toISOString();
    const issued = await app.admin.post('/v1/api-keys', {
      account_id: account.body.id,
      name: 'short',
      scopes: ['read'],
      expires_at: expiresAt,
    });
    expect(issued.status).toBe(201);
    expect(issued.body.expires_at).toBe(expiresAt);
    const client = app.admin.withKey(issued.body.key);
    expectError(await client.get('/v1/nothing'), 404, 'not_found');
    app.clock.advance(SETTLE_DEADLINE_MS + 1000);
    const after = await client.get('/v1/nothing');
    expectError(after, 401, 'unauthorized');
    expect(after.body.error.message).toMatch(/expired/);
  });

  it('refuses an expiry in the past, naming expires_at', async () => {
    const account = await app.admin.post('/v1/accounts', { name: 'Past' });
    const response = await app.admin.post('/v1/api-keys', {
      account_id: account.body.id,
      name: 'old',
      scopes: ['read'],
      expires_at: '2001-01-01T00:00:00.000Z',
    });
    expectError(response, 400, 'missing_required_field');
    expect(response.body.error.param).toBe('expires_at');
  });

  it('counts requests and errors per key with the last use', async () => {
    const { client, keyId, accountId } = await provisionAccount(app, ['read']);
    await client.get('/v1/missing-1');
    await client.get('/v1/missing-2');
    await client.post('/v1/missing', { a: 1 });
    // Usage is counted after each answer is sent: poll until all three are in, however busy the machine.
    const usage = async () => {
      const list = await app.admin.get(`/v1/api-keys?account_id=${accountId}`);
      return list.body.api_keys.find((k: { id: string }) => k.id === keyId);
    };
    await until('three requests counted', async () => (await usage()).request_count >= 3, SETTLE_DEADLINE_MS);
    expect(await usage()).toMatchObject({ request_count: 3, error_count: 3, last_used_at: expect.any(String) });
  });
});
