import { ApiClient, expectError } from '../support/http-client';
import { provisionAccountDirect, TestApp } from '../support/test-app';
import { customBody } from '../support/trunk-requests';
import { startFuzzApp } from './support/fuzz-session';
import { operationsOf } from './support/openapi-operations';
import { ResponseChecker } from './support/response-check';

/** Each case is a defect the OpenAPI fuzzer found, kept so that it stays fixed (PostgreSQL + Redis). */
describe('fuzzer regressions', () => {
  let app: TestApp;
  let stop: () => Promise<void>;
  let client: ApiClient;
  let trunkId: string;

  beforeAll(async () => {
    ({ app, stop } = await startFuzzApp());
    ({ client } = await provisionAccountDirect(app, ['full']));
    trunkId = (await client.post('/v1/trunks', customBody())).body.id;
  });
  afterAll(() => stop());

  const json = (raw: string) => ({ rawBody: raw, headers: { 'content-type': 'application/json' } });

  it('answers a JSON body nested 3000 levels deep with 400, not a stack overflow 500', async () => {
    expectError(
      await client.call('POST', '/v1/trunks', json(`{"a":${'{"a":'.repeat(3000)}1${'}'.repeat(3001)}`)),
      400,
      'missing_required_field',
    );
    expectError(
      await client.call('PATCH', `/v1/trunks/${trunkId}`, json(`{"name":${'['.repeat(5000)}${']'.repeat(5000)}}`)),
      400,
      'missing_required_field',
    );
  });

  it("answers a malformed percent-encoding in the path in the envelope (was Fastify's own body)", async () => {
    const response = await client.call('DELETE', '/v1/trunks/%');
    expectError(response, 400, 'missing_required_field');
    expect(response.headers['x-request-id']).toEqual(expect.any(String));
  });

  it('answers a path parameter longer than any id with 404 in the envelope (was a bare 414)', async () => {
    expectError(await app.admin.get(`/v1/accounts/${'z'.repeat(300)}`), 404, 'not_found');
  });

  it('answers a NUL byte in a path id with 404, not 503 from the event store', async () => {
    expectError(await client.delete('/v1/trunks/%00'), 404, 'not_found');
    expectError(await client.get('/v1/trunks/%00/events'), 404, 'not_found');
    expectError(await client.post('/v1/trunks/a%00b/rotate-password'), 404, 'not_found');
  });

  it('refuses NUL characters and unpaired surrogates in body text with 400 naming the field, not 503', async () => {
    for (const [field, value] of [
      ['name', 'a\u0000b'],
      ['system_prompt', 'x\u0000y'],
      ['name', 'a\ud800b'],
      ['sip_password', 'pass\udc00word1'],
    ]) {
      const response = await client.post('/v1/trunks', customBody({ [field]: value }));
      expectError(response, 400, 'missing_required_field');
      expect(response.body.error.param).toBe(field);
    }
    const patched = await client.patch(`/v1/trunks/${trunkId}`, { system_prompt: 'nul\u0000' });
    expectError(patched, 400, 'missing_required_field');
  });

  it('never quotes a malformed body back in the error message (it may hold a secret)', async () => {
    for (const raw of [
      '{"sip_password": Unquoted-Secret-42}',
      'Unquoted-Secret-42',
      '{"name":"x", "sip_password": Unquoted-Secret-42',
    ]) {
      const response = await client.call('POST', '/v1/trunks', json(raw));
      expectError(response, 400, 'missing_required_field');
      expect(response.text).not.toContain('Unquoted-Secret');
    }
  });

  it('answers a rotation that races the deletion of its trunk or webhook endpoint with 404, never 500', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) {
      const trunk = (await client.post('/v1/trunks', customBody())).body.id;
      const hook = (await client.post('/v1/webhook-endpoints', { url: `https://hooks.example.com/race-${i}` })).body.id;
      expect([trunk, hook]).toEqual([expect.any(String), expect.any(String)]);
      const results = await Promise.all([
        client.delete(`/v1/trunks/${trunk}`),
        ...[0, 1, 2].map(() => client.post(`/v1/trunks/${trunk}/rotate-password`)),
        client.delete(`/v1/webhook-endpoints/${hook}`),
        ...[0, 1, 2].map(() => client.post(`/v1/webhook-endpoints/${hook}/rotate-secret`)),
      ]);
      for (const r of results) {
        statuses.push(r.status);
        if (r.status >= 300) expectError(r, 404, 'not_found');
      }
    }
    expect(statuses.every((s) => s < 500)).toBe(true);
  });

  it('publishes the analytics overview, trunk history and ingestion body shapes the app really uses', async () => {
    const document = (await app.anonymous.get('/v1/openapi.json')).body;
    const checker = new ResponseChecker(document);
    const operations = operationsOf(document);
    const op = (key: string) => operations.find((o) => o.key === key)!;
    const overview = await client.get('/v1/analytics/overview?granularity=hourly');
    expect(checker.check(op('GET /v1/analytics/overview'), overview)).toEqual([]);
    const history = await client.get(`/v1/trunks/${trunkId}/events`);
    expect(history.body.events[0].actor).toEqual(expect.any(String));
    expect(checker.check(op('GET /v1/trunks/{id}/events'), history)).toEqual([]);
    expect(document.components.schemas.UpdateTrunkRequestDto.properties.system_prompt.type).toBe('string');
    expect(document.components.schemas.VadDto.properties.prefix_padding_ms.type).toBe('integer');
    expect(op('POST /v1/ingest/calls').body?.content['application/json']).toEqual(
      expect.objectContaining({ oneOf: expect.any(Array) }),
    );
  });
});
