import { SETTLE_DEADLINE_MS } from '../support/deadlines';
import { connect as netConnect } from 'node:net';
import { Readable } from 'node:stream';
import { connect } from 'node:tls';
import { Agent, request } from 'undici';
import { expectError } from '../support/http-client';
import { rawPlain, rawTls } from '../support/raw-socket';
import { trickle } from '../support/slow-client';
import { provisionAccountDirect, startTestApp, TestApp } from '../support/test-app';

/**
 * Transport hardening beyond transport.e2e / errors.e2e: protocol floor proven by the server's
 * alert, slow clients cut off, size limits before the body is read, no banner on any kind of
 * response. Timeouts shorter than production's (HEADERS_TIMEOUT_MS=5000, REQUEST_TIMEOUT_MS=10000)
 * keep it quick, yet long enough that a loaded machine still reads an ordinary request in time
 * (the trickles below last 10 s and 20 s, past both).
 */
describe('transport security', () => {
  let app: TestApp;
  let key: string;

  beforeAll(async () => {
    app = await startTestApp({
      HEADERS_TIMEOUT_MS: '5000',
      REQUEST_TIMEOUT_MS: '10000',
      BODY_LIMIT_BYTES: String(64 * 1024),
    });
    ({ key } = await provisionAccountDirect(app, ['full', 'ingest']));
  });
  afterAll(() => app.stop());

  const handshake = (minVersion: 'TLSv1' | 'TLSv1.1' | 'TLSv1.3', maxVersion: 'TLSv1' | 'TLSv1.1' | 'TLSv1.3') =>
    new Promise<string>((resolve) => {
      // SECLEVEL=0 lets this client offer the old protocols at all: the refusal must come from the server.
      const socket = connect(
        {
          host: '127.0.0.1',
          port: app.running.port,
          ca: app.running.tls!.cert,
          servername: 'localhost',
          minVersion,
          maxVersion,
          ciphers: 'DEFAULT@SECLEVEL=0',
        },
        () => {
          resolve(socket.getProtocol() ?? 'none');
          socket.end();
        },
      );
      socket.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
    });

  it('answers TLS 1.0 and 1.1 handshakes with the protocol_version alert, and speaks TLS 1.3', async () => {
    expect(await handshake('TLSv1', 'TLSv1')).toBe('ERR_SSL_TLSV1_ALERT_PROTOCOL_VERSION');
    expect(await handshake('TLSv1.1', 'TLSv1.1')).toBe('ERR_SSL_TLSV1_ALERT_PROTOCOL_VERSION');
    expect(await handshake('TLSv1.3', 'TLSv1.3')).toBe('TLSv1.3');
  });

  it('disconnects a client that sends its headers byte by byte, with 408 in the envelope', async () => {
    const outcome = await trickle(
      app.running.port,
      app.running.tls!.cert,
      'GET /healthz HTTP/1.1\r\nHost: localhost\r\n',
      `X-Slow: ${'a'.repeat(100)}\r\n\r\n`,
      100,
    );
    expect(outcome.closedByServer).toBe(true);
    expect(outcome.response).toMatch(/^HTTP\/1\.1 408/);
    expect(outcome.response).toContain('"code":"request_timeout"');
  });

  it('disconnects a client that trickles its body past the request timeout', async () => {
    const head = `POST /v1/trunks HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${key}\r\nContent-Type: application/json\r\nContent-Length: 200\r\n\r\n`;
    const outcome = await trickle(app.running.port, app.running.tls!.cert, head, `{"name":"${'x'.repeat(190)}"}`, 100);
    expect(outcome.closedByServer).toBe(true);
    expect(outcome.bytesSent).toBeLessThan(head.length + 200);
  });

  it('closes a connection that never sends a byte', async () => {
    const silent = await new Promise<boolean>((resolve) => {
      const socket = netConnect({ host: '127.0.0.1', port: app.running.port });
      const giveUp = setTimeout(() => (socket.destroy(), resolve(false)), SETTLE_DEADLINE_MS);
      socket.on('close', () => (clearTimeout(giveUp), resolve(true)));
    });
    expect(silent).toBe(true);
  });

  it('still serves an ordinary request with these short timeouts', async () => {
    expect((await app.anonymous.get('/v1/trunks', { key })).status).toBe(200);
  });

  it('refuses an announced oversized body with 413 before reading it', async () => {
    const raw = await rawTls(
      app.running.port,
      app.running.tls!.cert,
      `POST /v1/trunks HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${key}\r\nContent-Type: application/json\r\nContent-Length: 10000000\r\nConnection: close\r\n\r\n{"name":`,
    );
    expect(raw).toMatch(/^HTTP\/1\.1 413/);
    expect(raw).toContain('"code":"payload_too_large"');
  });

  it('refuses a chunked body that grows past the limit with 413', async () => {
    const body = Readable.from(
      (function* () {
        for (let i = 0; i < 20; i++) yield Buffer.from(i === 0 ? `{"name":"${'y'.repeat(8190)}` : 'y'.repeat(8192));
      })(),
    );
    const agent = new Agent({ connect: { ca: app.running.tls!.cert } });
    try {
      const response = await request(`${app.anonymous.origin}/v1/trunks`, {
        method: 'POST',
        body,
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        dispatcher: agent,
      });
      expect(response.headers['content-length']).toBeDefined();
      expect(response.statusCode).toBe(413);
      expect(((await response.body.json()) as { error: { code: string } }).error.code).toBe('payload_too_large');
    } finally {
      await agent.close();
    }
  });

  it('refuses an ingestion body over 16 MiB with 413', async () => {
    const response = await app.anonymous.call('POST', '/v1/ingest/calls', {
      key,
      rawBody: Buffer.alloc(17 * 1024 * 1024, 0x20),
      headers: { 'content-type': 'application/x-ndjson' },
    });
    expectError(response, 413, 'payload_too_large');
  });

  it('answers 431 for many headers over 16 KiB in all and for a request line over 16 KiB, and accepts 12 KiB of headers', async () => {
    const many = Array.from({ length: 400 }, (_, i) => `X-H${i}: ${'v'.repeat(40)}\r\n`).join('');
    const headers = await rawTls(
      app.running.port,
      app.running.tls!.cert,
      `GET /healthz HTTP/1.1\r\nHost: localhost\r\n${many}\r\n`,
    );
    expect(headers).toMatch(/^HTTP\/1\.1 431/);
    const line = await rawTls(
      app.running.port,
      app.running.tls!.cert,
      `GET /v1/trunks?q=${'a'.repeat(17 * 1024)} HTTP/1.1\r\nHost: localhost\r\n\r\n`,
    );
    expect(line).toMatch(/^HTTP\/1\.1 431/);
    expect(line).toContain('"code":"header_fields_too_large"');
    const fits = await app.anonymous.get('/healthz', { headers: { 'x-padding': 'p'.repeat(12 * 1024) } });
    expect(fits.status).toBe(200);
  });

  it('names no framework or server on any kind of response', async () => {
    const responses = [
      await app.anonymous.get('/v1/openapi.json'),
      await app.anonymous.get('/v1/trunks', { key }),
      await app.anonymous.get('/v1/trunks'),
      await app.anonymous.get('/v1/nowhere', { key }),
      await app.anonymous.call('PUT', '/v1/trunks', { key }),
      await app.anonymous.call('POST', '/v1/trunks', {
        key,
        rawBody: 'a=1',
        headers: { 'content-type': 'text/plain' },
      }),
      await app.anonymous.post('/v1/trunks', { name: 'x'.repeat(70 * 1024) }, { key }),
      await app.anonymous.get('/v1/trunks/%'),
    ];
    for (const response of responses) {
      expect({
        status: response.status,
        poweredBy: response.headers['x-powered-by'],
        server: response.headers.server,
      }).toEqual({ status: response.status, poweredBy: undefined, server: undefined });
    }
    const raws = [
      await rawPlain(app.running.port, 'GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n'),
      await rawTls(
        app.running.port,
        app.running.tls!.cert,
        `GET /healthz HTTP/1.1\r\nHost: localhost\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
      ),
      await rawTls(app.running.port, app.running.tls!.cert, 'BROKEN\r\n\r\n'),
    ];
    for (const raw of raws) {
      const head = raw.split('\r\n\r\n')[0];
      expect(head).toMatch(/^HTTP\/1\.1 4\d\d/);
      expect(head).not.toMatch(/^(server|x-powered-by):/im);
    }
  });
});
