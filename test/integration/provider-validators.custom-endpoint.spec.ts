import { SETTLE_DEADLINE_MS } from '../support/deadlines';
import { createProviderValidator } from '../../src/infrastructure/providers/provider-validator.factory';
import type { ValidationResult } from '../../src/infrastructure/providers/provider-validator.port';
import {
  closedPort,
  startSilentServer,
  startWebSocketStub,
  testCertificate,
  type UpgradeBehaviour,
  type WebSocketStub,
} from '../support/provider-stubs';

const TIMEOUT_MS = 300;

/** Probes `wss://<host>:<port>/v1/stream?session=abc` with the test CA trusted (unless told not to). */
function probe(
  port: number,
  opts: { ca?: string; host?: string; probe?: boolean; timeoutMs?: number },
): Promise<ValidationResult> {
  const validator = createProviderValidator({
    mode: 'live',
    openaiApiBase: 'http://127.0.0.1:1/v1',
    elevenlabsApiBase: 'http://127.0.0.1:1/v1',
    timeoutMs: opts.timeoutMs ?? TIMEOUT_MS,
    probeCustomEndpoints: opts.probe ?? true,
    ca: opts.ca,
  });
  return validator.validate({
    provider: 'custom',
    endpoint: `wss://${opts.host ?? '127.0.0.1'}:${port}/v1/stream?session=abc`,
  });
}

async function eventually(check: () => boolean, ms = SETTLE_DEADLINE_MS): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
}

describe('custom endpoint WebSocket handshake probe', () => {
  let certificate: { key: string; cert: string };
  const stubs: Array<{ close(): Promise<void> }> = [];
  const agent = async (behaviour: UpgradeBehaviour, tls = certificate): Promise<WebSocketStub> => {
    const started = await startWebSocketStub(tls, behaviour);
    stubs.push(started);
    return started;
  };
  beforeAll(async () => {
    certificate = await testCertificate();
  });
  afterEach(async () => {
    await Promise.all(stubs.splice(0).map((s) => s.close()));
  });

  it('accepts a 101 with the right Sec-WebSocket-Accept, then closes politely', async () => {
    const stub = await agent('accept');
    expect(await probe(stub.port, { ca: certificate.cert, timeoutMs: 3000 })).toEqual({ ok: true });
    const [upgrade] = stub.upgrades;
    expect(upgrade.path).toBe('/v1/stream?session=abc');
    expect(upgrade.headers).toMatchObject({
      host: `127.0.0.1:${stub.port}`,
      upgrade: 'websocket',
      connection: 'Upgrade',
      'sec-websocket-version': '13',
    });
    expect(Buffer.from(String(upgrade.headers['sec-websocket-key']), 'base64')).toHaveLength(16);
    await eventually(() => upgrade.after.length > 0);
    const frame = Buffer.concat(upgrade.after);
    // FIN + close opcode, masked, 2-byte payload (status 1000 once unmasked).
    expect([frame[0], frame[1]]).toEqual([0x88, 0x82]);
    expect(((frame[6] ^ frame[2]) << 8) | (frame[7] ^ frame[3])).toBe(1000);
  });

  it('sends a fresh Sec-WebSocket-Key with every probe', async () => {
    const stub = await agent('accept');
    await probe(stub.port, { ca: certificate.cert, timeoutMs: 3000 });
    await probe(stub.port, { ca: certificate.cert, timeoutMs: 3000 });
    const [first, second] = stub.upgrades.map((u) => u.headers['sec-websocket-key']);
    expect(first).not.toEqual(second);
  });

  it('reaches a host by name, with SNI', async () => {
    const stub = await agent('accept');
    expect(await probe(stub.port, { ca: certificate.cert, host: 'localhost', timeoutMs: 3000 })).toEqual({ ok: true });
  });

  it('rejects a 101 with a wrong Sec-WebSocket-Accept on custom_endpoint', async () => {
    const stub = await agent('wrong-accept');
    expect(await probe(stub.port, { ca: certificate.cert })).toMatchObject({
      ok: false,
      reason: 'rejected',
      field: 'custom_endpoint',
    });
  });

  it('rejects an endpoint that answers 404, naming the status', async () => {
    const stub = await agent('not-found');
    const result = await probe(stub.port, { ca: certificate.cert });
    expect(result).toMatchObject({
      ok: false,
      reason: 'rejected',
      field: 'custom_endpoint',
      message: expect.stringContaining('HTTP 404'),
    });
  });

  it('reports an endpoint that answers 503 as unreachable: the URL is right, the agent is down', async () => {
    const stub = await agent('unavailable');
    expect(await probe(stub.port, { ca: certificate.cert })).toMatchObject({ ok: false, reason: 'unreachable' });
  });

  it('reports an endpoint that never answers the upgrade as unreachable once the timeout passes', async () => {
    const stub = await agent('hang');
    expect(await probe(stub.port, { ca: certificate.cert })).toMatchObject({ ok: false, reason: 'unreachable' });
    expect(stub.upgrades).toHaveLength(1);
    // The probe gave up by itself (the stub never answers the upgrade, never closes): its own timeout.
    await eventually(() => stub.abandoned() === 1);
    expect(stub.abandoned()).toBe(1);
  });

  it('reports an endpoint that drops the connection without answering as unreachable', async () => {
    const stub = await agent('drop');
    expect(await probe(stub.port, { ca: certificate.cert })).toMatchObject({ ok: false, reason: 'unreachable' });
  });

  it('reports a server that never completes the TLS handshake as unreachable', async () => {
    const silent = await startSilentServer();
    stubs.push(silent);
    expect(await probe(silent.port, { ca: certificate.cert })).toMatchObject({ ok: false, reason: 'unreachable' });
  });

  it('reports a refused connection as unreachable', async () => {
    const result = await probe(await closedPort(), { ca: certificate.cert });
    expect(result).toEqual({
      ok: false,
      reason: 'unreachable',
      message: 'the custom endpoint could not be reached (ECONNREFUSED)',
    });
  });

  it('rejects an untrusted certificate without sending the upgrade', async () => {
    const stub = await agent('accept');
    const result = await probe(stub.port, {});
    expect(result).toMatchObject({
      ok: false,
      reason: 'rejected',
      field: 'custom_endpoint',
      message: expect.stringContaining('not trusted'),
    });
    expect(stub.upgrades).toHaveLength(0);
  });

  it('rejects a certificate issued for another name', async () => {
    const other = await testCertificate(['other.example']);
    const stub = await agent('accept', other);
    const result = await probe(stub.port, { ca: other.cert });
    expect(result).toMatchObject({ ok: false, reason: 'rejected', field: 'custom_endpoint' });
    expect(stub.upgrades).toHaveLength(0);
  });

  it('connects to nothing when the probe is off (the default)', async () => {
    const stub = await agent('not-found');
    expect(await probe(stub.port, { ca: certificate.cert, probe: false })).toEqual({ ok: true });
    expect(stub.connections()).toBe(0);
  });
});
