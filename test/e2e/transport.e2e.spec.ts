import { connect as tlsConnect } from 'node:tls';
import { request } from 'undici';
import { expectError } from '../support/http-client';
import { startTestApp, TestApp } from '../support/test-app';
import { rawPlain } from '../support/raw-socket';

describe('HTTPS transport', () => {
  let app: TestApp;

  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(() => app.stop());

  it('answers plain HTTP on the HTTPS port with 400 saying HTTPS is required', async () => {
    const response = await request(`http://127.0.0.1:${app.running.port}/v1/accounts`);
    const body = (await response.body.json()) as { error: { code: string; message: string; status: number } };
    expect(response.statusCode).toBe(400);
    expect(body.error).toEqual({
      code: 'missing_required_field',
      message: expect.stringMatching(/HTTPS is required/),
      reason: 'https_required',
      status: 400,
    });
  });

  it('answers a raw plain-HTTP request line the same way', async () => {
    const raw = await rawPlain(app.running.port, 'GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n');
    expect(raw).toMatch(/^HTTP\/1\.1 400/);
  });

  it('serves health, readiness and the OpenAPI description without a key', async () => {
    expect((await app.anonymous.get('/healthz')).body).toEqual({ status: 'ok' });
    const ready = await app.anonymous.get('/readyz');
    expect(ready.status).toBe(200);
    expect(ready.body.checks).toEqual({ event_store: 'ok', read_model_store: 'ok', projections: 'ok' });
    const openapi = await app.anonymous.get('/v1/openapi.json');
    expect(openapi.status).toBe(200);
    expect(openapi.body.openapi).toMatch(/^3\./);
    expect(openapi.body.servers).toEqual([expect.objectContaining({ url: '/v1' })]);
    expect(Object.keys(openapi.body.paths)).toEqual(
      expect.arrayContaining(['/accounts', '/api-keys', '/api-keys/{id}']),
    );
  });

  it('refuses TLS 1.1', async () => {
    const outcome = await new Promise<string>((resolve) => {
      const socket = tlsConnect(
        {
          host: '127.0.0.1',
          port: app.running.port,
          ca: app.running.tls!.cert,
          servername: 'localhost',
          minVersion: 'TLSv1',
          maxVersion: 'TLSv1.1',
        },
        () => {
          socket.end();
          resolve('connected');
        },
      );
      socket.on('error', () => resolve('refused'));
    });
    expect(outcome).toBe('refused');
  });

  it('accepts TLS 1.2', async () => {
    const protocol = await new Promise<string | null>((resolve, reject) => {
      const socket = tlsConnect(
        {
          host: '127.0.0.1',
          port: app.running.port,
          ca: app.running.tls!.cert,
          servername: 'localhost',
          maxVersion: 'TLSv1.2',
        },
        () => {
          resolve(socket.getProtocol());
          socket.end();
        },
      );
      socket.on('error', reject);
    });
    expect(protocol).toBe('TLSv1.2');
  });
});

describe('behind a TLS-terminating proxy (TLS_MODE=proxy)', () => {
  let app: TestApp;

  beforeAll(async () => {
    app = await startTestApp({ TLS_MODE: 'proxy' });
  });
  afterAll(() => app.stop());

  it('answers 400 when X-Forwarded-Proto is not https', async () => {
    expectError(await app.admin.get('/v1/accounts'), 400, 'missing_required_field');
    expectError(
      await app.admin.get('/v1/accounts', { headers: { 'x-forwarded-proto': 'http' } }),
      400,
      'missing_required_field',
    );
  });

  it('serves requests the proxy says came over https', async () => {
    const response = await app.admin.get('/v1/accounts', { headers: { 'x-forwarded-proto': 'https' } });
    expect(response.status).toBe(200);
  });
});
