import { randomUUID } from 'node:crypto';
import { expectError } from '../support/http-client';
import { provisionAccountDirect, startTestApp, TEST_REDIS_URL, TestApp } from '../support/test-app';
import { customBody } from '../support/trunk-requests';

const key = () => ({ 'idempotency-key': randomUUID() });

describe.each([
  ['memory', {}],
  ['Redis', { REDIS_URL: TEST_REDIS_URL }],
])('Idempotency-Key on POST over HTTPS (%s)', (_store, env: Record<string, string>) => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp(env);
  });
  afterAll(() => app.stop());

  it('answers a sequential retry with the first response, replayed, and creates one trunk', async () => {
    const { client } = await provisionAccountDirect(app);
    const body = customBody();
    const headers = key();
    const first = await client.post('/v1/trunks', body, { headers });
    const retry = await client.post('/v1/trunks', body, { headers });
    expect([first.status, retry.status]).toEqual([201, 201]);
    expect(retry.body).toEqual(first.body);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(retry.headers['x-request-id']).not.toBe(first.headers['x-request-id']);
    const listed = await client.get('/v1/trunks');
    expect(listed.body.trunks.map((t: { id: string }) => t.id)).toEqual([first.body.id]);
  });

  it('creates one trunk for concurrent requests with one key, and answers every one with it', async () => {
    const { client } = await provisionAccountDirect(app);
    const body = customBody();
    const headers = key();
    const responses = await Promise.all(Array.from({ length: 6 }, () => client.post('/v1/trunks', body, { headers })));
    expect(responses.map((r) => r.status)).toEqual(Array(6).fill(201));
    expect(new Set(responses.map((r) => r.body.id)).size).toBe(1);
    expect(responses.filter((r) => r.headers['idempotent-replayed'] === 'true')).toHaveLength(5);
    expect((await client.get('/v1/trunks')).body.pagination.total).toBe(1);
  });

  it('answers the same key with another body 422 idempotency_key_reused, and creates nothing', async () => {
    const { client } = await provisionAccountDirect(app);
    const headers = key();
    expect((await client.post('/v1/trunks', customBody(), { headers })).status).toBe(201);
    const reused = await client.post('/v1/trunks', customBody(), { headers });
    expectError(reused, 422, 'idempotency_key_reused');
    expect(reused.body.error.param).toBe('Idempotency-Key');
    expect((await client.get('/v1/trunks')).body.pagination.total).toBe(1);
  });

  it('treats a body with its keys in another order as the same request', async () => {
    const { client } = await provisionAccountDirect(app);
    const body = customBody();
    const headers = key();
    const first = await client.post('/v1/trunks', body, { headers });
    const reordered = Object.fromEntries(Object.entries(body).reverse());
    const retry = await client.post('/v1/trunks', reordered, { headers });
    expect([retry.status, retry.body.id]).toEqual([201, first.body.id]);
  });

  it('keeps no failed answer: a retry after a 4xx runs again', async () => {
    const { client } = await provisionAccountDirect(app);
    const headers = key();
    const body = customBody();
    const bad = await client.post('/v1/trunks', { ...body, sip_password: 'short' }, { headers });
    expectError(bad, 400, 'missing_required_field');
    const fixed = await client.post('/v1/trunks', body, { headers });
    expect(fixed.status).toBe(201);
    const replayed = await client.post('/v1/trunks', body, { headers });
    expect([replayed.body.id, replayed.headers['idempotent-replayed']]).toEqual([fixed.body.id, 'true']);
  });

  it('keeps the keys of each account apart', async () => {
    const [a, b] = await Promise.all([provisionAccountDirect(app), provisionAccountDirect(app)]);
    const headers = key();
    const first = await a.client.post('/v1/trunks', customBody(), { headers });
    const second = await b.client.post('/v1/trunks', customBody(), { headers });
    expect([first.status, second.status]).toEqual([201, 201]);
    expect(second.body.id).not.toBe(first.body.id);
    expect(second.headers['idempotent-replayed']).toBeUndefined();
  });

  it('replays a rotation, so a retried rotate does not rotate twice', async () => {
    const { client } = await provisionAccountDirect(app);
    const trunk = (await client.post('/v1/trunks', customBody())).body;
    const headers = key();
    const first = await client.post(`/v1/trunks/${trunk.id}/rotate-password`, undefined, { headers });
    const retry = await client.post(`/v1/trunks/${trunk.id}/rotate-password`, undefined, { headers });
    expect(first.status).toBe(200);
    expect(retry.body.sip_password).toBe(first.body.sip_password);
    const history = await client.get(`/v1/trunks/${trunk.id}/events`);
    expect(history.body.events.filter((e: { type: string }) => e.type === 'SipPasswordRotated')).toHaveLength(1);
  });

  it('refuses a malformed key with 400 naming the header', async () => {
    const { client } = await provisionAccountDirect(app);
    const response = await client.post('/v1/trunks', customBody(), { headers: { 'idempotency-key': 'x'.repeat(256) } });
    expectError(response, 400, 'missing_required_field');
    expect(response.body.error.param).toBe('Idempotency-Key');
  });
});
