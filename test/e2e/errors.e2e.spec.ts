import { ApiResponse, expectError } from '../support/http-client';
import { rawTls } from '../support/raw-socket';
import { provisionAccountDirect, startTestApp, TestApp } from '../support/test-app';
import { customBody } from '../support/trunk-requests';

/** Bad input of every kind gets a 4xx in the envelope, never a 5xx (embedded stores). */
describe('error envelope for bad input', () => {
  let app: TestApp;

  beforeAll(async () => {
    app = await startTestApp({ BODY_LIMIT_BYTES: String(64 * 1024) });
  });
  afterAll(() => app.stop());

  it('answers an unknown route with 404 not_found', async () => {
    expectError(await app.admin.get('/nowhere'), 404, 'not_found');
  });

  it('answers a /v1 route that does not exist with 404 not_found to a key of every scope', async () => {
    const keys = await Promise.all(
      (['full', 'read', 'ingest'] as const).map(async (scope) => (await provisionAccountDirect(app, [scope])).client),
    );
    for (const client of [app.admin, ...keys]) {
      expectError(await client.get('/v1/nowhere'), 404, 'not_found');
      expectError(await client.post('/v1/trunks/conn_x/nowhere', {}), 404, 'not_found');
      expectError(await client.get('/v1/accounts/acct_x/nowhere'), 404, 'not_found');
    }
    expectError(await app.anonymous.get('/v1/nowhere'), 401, 'missing_authentication');
  });

  it('answers a known path with the wrong method with 405 and Allow', async () => {
    const response = await app.admin.call('PUT', '/v1/accounts');
    expectError(response, 405, 'method_not_allowed');
    expect(response.headers.allow).toContain('POST');
    expect(response.headers.allow).toContain('GET');
  });

  it('answers malformed JSON with 400 missing_required_field and no param', async () => {
    const response = await app.admin.call('POST', '/v1/accounts', {
      rawBody: '{"name": ',
      headers: { 'content-type': 'application/json' },
    });
    expectError(response, 400, 'missing_required_field');
    expect(response.body.error.param).toBeUndefined();
  });

  it('answers a body that is not valid UTF-8 with 400', async () => {
    const response = await app.admin.call('POST', '/v1/accounts', {
      rawBody: Buffer.from([0x7b, 0x22, 0x6e, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d]),
      headers: { 'content-type': 'application/json' },
    });
    expectError(response, 400, 'missing_required_field');
    expect(response.body.error.message).toMatch(/UTF-8/);
  });

  it('names the field of a wrong type', async () => {
    const response = await app.admin.post('/v1/accounts', { name: 42 });
    expectError(response, 400, 'missing_required_field');
    expect(response.body.error.param).toBe('name');
  });

  it('names a missing required field', async () => {
    const response = await app.admin.post('/v1/accounts', {});
    expectError(response, 400, 'missing_required_field');
    expect(response.body.error.param).toBe('name');
  });

  it('refuses unknown fields, naming them', async () => {
    const response = await app.admin.post('/v1/accounts', { name: 'A', colour: 'red' });
    expectError(response, 400, 'missing_required_field');
    expect(response.body.error.param).toBe('colour');
  });

  it('refuses a JSON array where an object is expected', async () => {
    expectError(await app.admin.post('/v1/accounts', [{ name: 'A' }]), 400, 'missing_required_field');
  });

  it('refuses prototype poisoning', async () => {
    const response = await app.admin.call('POST', '/v1/accounts', {
      rawBody: '{"name":"A","__proto__":{"admin":true}}',
      headers: { 'content-type': 'application/json' },
    });
    expectError(response, 400, 'missing_required_field');
  });

  it('answers an enum value outside the list, naming the field', async () => {
    const response = await app.admin.post('/v1/api-keys', { name: 'x', scopes: ['root'] });
    expectError(response, 400, 'missing_required_field');
    expect(response.body.error.param).toBe('scopes');
  });

  it('answers a body over the limit with 413 payload_too_large', async () => {
    expectError(await app.admin.post('/v1/accounts', { name: 'x'.repeat(70 * 1024) }), 413, 'payload_too_large');
  });

  it('answers an unsupported content type with 415', async () => {
    expectError(
      await app.admin.call('POST', '/v1/accounts', {
        rawBody: 'name=A',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      }),
      415,
      'unsupported_media_type',
    );
  });

  it('answers a JSON body sent as text/plain with 415, not as a missing field', async () => {
    const { client } = await provisionAccountDirect(app);
    const response = await client.call('POST', '/v1/trunks', {
      rawBody: JSON.stringify(customBody()),
      headers: { 'content-type': 'text/plain' },
    });
    expectError(response, 415, 'unsupported_media_type');
    expect(response.body.error.message).toBe('Content-Type text/plain is not accepted here: send application/json');
  });

  it('answers a body without a Content-Type with 415', async () => {
    const response = await app.admin.call('POST', '/v1/accounts', { rawBody: '{"name":"A"}' });
    expectError(response, 415, 'unsupported_media_type');
    expect(response.body.error.message).toMatch(/needs a Content-Type: send application\/json/);
  });

  it('answers NDJSON on a route that takes JSON with 415; the ingestion route names both types', async () => {
    const ndjson = { rawBody: '{"name":"A"}\n', headers: { 'content-type': 'application/x-ndjson' } };
    expectError(await app.admin.call('POST', '/v1/accounts', ndjson), 415, 'unsupported_media_type');
    const { client } = await provisionAccountDirect(app, ['ingest']);
    const plain = await client.call('POST', '/v1/ingest/calls', {
      ...ndjson,
      headers: { 'content-type': 'text/plain' },
    });
    expectError(plain, 415, 'unsupported_media_type');
    expect(plain.body.error.message).toMatch(/send application\/json or application\/x-ndjson/);
  });

  it('takes a declared Content-Type with an empty body as no body, like an empty JSON body', async () => {
    const empty = (type: string) =>
      app.admin.call('POST', '/v1/accounts', { rawBody: '', headers: { 'content-type': type } });
    const [plain, json] = await Promise.all([empty('text/plain;charset=UTF-8'), empty('application/json')]);
    expectError(plain, 400, 'missing_required_field');
    expect(plain.body).toEqual(json.body);
  });

  it('says in error.reason what is wrong while code stays missing_required_field', async () => {
    const { client } = await provisionAccountDirect(app);
    const json = (rawBody: string) =>
      app.admin.call('POST', '/v1/accounts', { rawBody, headers: { 'content-type': 'application/json' } });
    const cases: [string, Promise<ApiResponse>, string, string | undefined][] = [
      ['bad JSON', json('{"name": '), 'invalid_json', undefined],
      ['a wrong type', app.admin.post('/v1/accounts', { name: 42 }), 'invalid_type', 'name'],
      ['a missing field', app.admin.post('/v1/accounts', {}), 'missing', 'name'],
      ['an unknown field', app.admin.post('/v1/accounts', { name: 'A', colour: 'red' }), 'unknown_field', 'colour'],
      ['an enum miss', client.post('/v1/trunks', customBody({ ai_provider: 'nobody' })), 'not_in_enum', 'ai_provider'],
      ['a too-long string', app.admin.post('/v1/accounts', { name: 'x'.repeat(201) }), 'too_long', 'name'],
      ['an empty string', app.admin.post('/v1/accounts', { name: '' }), 'too_short', 'name'],
      [
        'an http:// webhook URL',
        client.post('/v1/webhook-endpoints', { url: 'http://example.com/hook', event_types: ['trunk.created'] }),
        'invalid_format',
        'url',
      ],
      [
        'a malformed Idempotency-Key',
        client.post('/v1/trunks', customBody(), { headers: { 'idempotency-key': 'k'.repeat(256) } }),
        'invalid_header',
        'Idempotency-Key',
      ],
    ];
    for (const [what, pending, reason, param] of cases) {
      const response = await pending;
      expect({ what, status: response.status, code: response.body.error?.code }).toEqual({
        what,
        status: 400,
        code: 'missing_required_field',
      });
      expect({ what, reason: response.body.error.reason, param: response.body.error.param }).toEqual({
        what,
        reason,
        param,
      });
    }
  });

  it('refuses a charset other than UTF-8 with 415, and takes utf-8 in any spelling', async () => {
    const send = (type: string) =>
      app.admin.call('POST', '/v1/accounts', { rawBody: '{"name":"Charset"}', headers: { 'content-type': type } });
    for (const type of ['application/json; charset=utf-16', 'application/json;charset="ISO-8859-1"'])
      expectError(await send(type), 415, 'unsupported_media_type');
    for (const type of ['application/json; charset=UTF-8', 'application/json;charset="utf8"'])
      expect((await send(type)).status).toBe(201);
  });

  it('refuses a body on an operation that takes none, and takes {} as none', async () => {
    const { client } = await provisionAccountDirect(app);
    const trunk = (await client.post('/v1/trunks', customBody())).body;
    const rotate = (body: unknown) => client.post(`/v1/trunks/${trunk.id}/rotate-password`, body);
    const refused = await rotate({ x: 1 });
    expectError(refused, 400, 'missing_required_field');
    expect(refused.body.error).toMatchObject({ param: 'x', reason: 'unknown_field' });
    expect((await rotate([1])).body.error.reason).toBe('body_not_allowed');
    expect((await rotate({})).status).toBe(200);
    expect((await client.post(`/v1/trunks/${trunk.id}/rotate-password`)).status).toBe(200);
  });

  it('refuses cursor together with offset with 400 invalid_params', async () => {
    const { client } = await provisionAccountDirect(app);
    for (const path of ['/v1/calls', '/v1/trunks']) {
      const response = await client.get(`${path}?cursor=abc&offset=5`);
      expectError(response, 400, 'invalid_params');
      expect(response.body.error).toMatchObject({ param: 'offset', reason: 'conflicting_params' });
    }
  });

  it('answers NDJSON of which no line parses with 400 naming the likely cause', async () => {
    const { client } = await provisionAccountDirect(app, ['ingest']);
    const flattened = ['{"id":"call_a","trunk_id":"conn_x"}', '{"id":"call_b","trunk_id":"conn_x"}'].join('');
    const response = await client.call('POST', '/v1/ingest/calls', {
      rawBody: flattened,
      headers: { 'content-type': 'application/x-ndjson' },
    });
    expectError(response, 400, 'missing_required_field');
    expect(response.body.error.reason).toBe('no_records');
    expect(response.body.error.message).toMatch(/separated by newlines; with curl use --data-binary/);
  });

  it('answers a bad query parameter with 400 invalid_params', async () => {
    for (const query of ['limit=0', 'limit=101', 'limit=abc', 'offset=-1', 'limit=1&limit=2']) {
      const response = await app.admin.get(`/v1/accounts?${query}`);
      expectError(response, 400, 'invalid_params');
    }
  });

  it('answers oversized headers with 431 in the envelope', async () => {
    const raw = await rawTls(
      app.running.port,
      app.running.tls!.cert,
      `GET /v1/accounts HTTP/1.1\r\nHost: localhost\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
    );
    expect(raw).toMatch(/^HTTP\/1\.1 431/);
    expect(raw).toContain('"code":"header_fields_too_large"');
  });

  it('echoes a sane X-Request-Id and generates one otherwise', async () => {
    const echoed = await app.admin.get('/v1/nowhere', { headers: { 'x-request-id': 'abc-123' } });
    expect(echoed.headers['x-request-id']).toBe('abc-123');
    const generated = await app.admin.get('/v1/nowhere', { headers: { 'x-request-id': 'bad id with spaces' } });
    expect(generated.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('never carries framework banner headers', async () => {
    const response = await app.admin.get('/healthz');
    expect(response.headers['x-powered-by']).toBeUndefined();
    expect(response.headers.server).toBeUndefined();
  });
});
