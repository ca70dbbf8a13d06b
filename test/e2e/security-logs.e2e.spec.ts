import { SETTLE_DEADLINE_MS } from '../support/deadlines';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, Server } from 'node:https';
import { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadTlsMaterial } from '../../src/platform/http/tls-material';
import { ApiResponse } from '../support/http-client';
import { useIsolatedSchema } from '../support/postgres';
import { startTestApp, TEST_REDIS_URL, TestApp } from '../support/test-app';
import { customBody, elevenlabsBody, trunkBody } from '../support/trunk-requests';

const MASTER_KEY = Buffer.alloc(32, 5).toString('base64');
const PASSWORDS = ['Log-Scan-Sip-Password-1', 'Log-Scan-Sip-Password-2', 'Log-Scan-Sip-Password-3'];
const OPENAI = [`sk-proj-LogScanOpenAi${'K'.repeat(30)}`, `sk-proj-LogScanOpenAiPatched${'P'.repeat(24)}`];
const ELEVENLABS = ['LogScanElevenLabsKey0123456789', 'LogScanElevenLabsPatchedKey987'];

/**
 * A full flow at LOG_LEVEL=trace (keys, trunks, password rotations, provider key changes,
 * ingestion, the gateway's HA1 lookup, webhooks signed and delivered to a local receiver, and
 * the failing variants of each), then every captured log line is scanned for every secret the
 * run issued or sent.
 */
describe('no secret in any log line (PostgreSQL, Redis, trace level)', () => {
  const { url, schema } = useIsolatedSchema('logscan');
  let app: TestApp;
  let receiver: Server;
  let receiverDir: string;
  const received: string[] = [];
  const secrets = new Set<string>([MASTER_KEY, ...PASSWORDS, ...OPENAI, ...ELEVENLABS]);
  const keep = <T extends ApiResponse>(r: T, ...fields: string[]): T => {
    for (const field of fields) if (typeof r.body?.[field] === 'string') secrets.add(r.body[field]);
    return r;
  };

  beforeAll(async () => {
    receiverDir = mkdtempSync(join(tmpdir(), 'logscan-receiver-'));
    const tls = await loadTlsMaterial({ certFile: null, keyFile: null, dataDir: receiverDir });
    receiver = createServer({ cert: tls.cert, key: tls.key }, (req, res) => {
      let body = '';
      req.on('data', (chunk) => (body += chunk));
      req.on('end', () => {
        received.push(`${JSON.stringify(req.headers)} ${body}`);
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    app = await startTestApp({
      REDIS_URL: TEST_REDIS_URL,
      EVENT_STORE_URL: url,
      EVENT_STORE_SCHEMA: schema,
      MASTER_KEY,
      PROVIDER_VALIDATION: 'format',
      LOG_LEVEL: 'trace',
      WEBHOOK_ALLOW_PRIVATE: 'true',
      WEBHOOK_CA_FILE: tls.certPath,
      WEBHOOK_POLL_INTERVAL_MS: '50',
    });
    secrets.add(app.adminKey);
  });
  afterAll(async () => {
    await app.stop();
    await new Promise((resolve) => receiver.close(resolve));
    rmSync(receiverDir, { recursive: true, force: true });
  });

  it('logs none of the API keys, SIP passwords, provider keys, HA1 hashes or webhook secrets of a full run', async () => {
    const account = (await app.admin.post('/v1/accounts', { name: 'Log scan' })).body.id;
    const issue = async (scopes: string[]) =>
      keep(await app.admin.post('/v1/api-keys', { account_id: account, name: scopes.join(), scopes }), 'key').body;
    const full = app.admin.withKey((await issue(['full'])).key);
    const read = app.admin.withKey((await issue(['read'])).key);
    const gateway = app.admin.withKey((await issue(['ingest'])).key);
    const revoked = await issue(['full']);
    keep(await app.admin.post('/v1/api-keys', { name: 'second admin', scopes: ['admin'] }), 'key');

    const hook = keep(
      await full.post('/v1/webhook-endpoints', {
        url: `https://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`,
      }),
      'secret',
    );
    expect(hook.status).toBe(201);
    const openai = await full.post('/v1/trunks', trunkBody({ sip_password: PASSWORDS[0], openai_api_key: OPENAI[0] }));
    const eleven = await full.post(
      '/v1/trunks',
      elevenlabsBody({ sip_password: PASSWORDS[1], elevenlabs_api_key: ELEVENLABS[0] }),
    );
    const custom = await full.post('/v1/trunks', customBody({ sip_password: PASSWORDS[2] }));
    for (const created of [openai, eleven, custom]) expect(created.status).toBe(201);
    expect((await full.patch(`/v1/trunks/${openai.body.id}`, { openai_api_key: OPENAI[1] })).status).toBe(200);
    expect((await full.patch(`/v1/trunks/${eleven.body.id}`, { elevenlabs_api_key: ELEVENLABS[1] })).status).toBe(200);
    for (const trunk of [openai, eleven, custom])
      keep(await full.post(`/v1/trunks/${trunk.body.id}/rotate-password`), 'sip_password');
    keep(await full.post(`/v1/trunks/${custom.body.id}/rotate-sip-password`), 'sip_password');
    keep(await full.post(`/v1/webhook-endpoints/${hook.body.id}/rotate-secret`), 'secret');
    expect((await full.post(`/v1/webhook-endpoints/${hook.body.id}/test`)).status).toBe(202);
    const ha1s = [];
    for (const trunk of [openai, eleven, custom])
      ha1s.push(keep(await gateway.get(`/v1/gateway/trunks/${trunk.body.sip_username}`), 'ha1').body.ha1);
    expect(ha1s).toEqual([
      expect.stringMatching(/^[0-9a-f]{32}$/),
      expect.stringMatching(/^[0-9a-f]{32}$/),
      expect.stringMatching(/^[0-9a-f]{32}$/),
    ]);
    const now = Date.now();
    const calls = [0, 1, 2].map((i) => ({
      id: `call_logscan${i}`,
      trunk_id: openai.body.id,
      from: '+15550001111',
      to: '+15550002222',
      status: 'connected',
      start_time: new Date(now - 120_000).toISOString(),
      end_time: new Date(now - 60_000).toISOString(),
    }));
    expect((await gateway.post('/v1/ingest/calls', calls)).status).toBe(200);
    expect(
      (
        await full.post('/v1/alert-rules', {
          name: 'slow',
          metric: 'p95_latency_ms',
          comparison: 'gt',
          threshold: 500,
          window_minutes: 5,
        })
      ).status,
    ).toBe(201);
    await read.get('/v1/trunks');
    await read.get(`/v1/trunks/${openai.body.id}/events`);

    // The failing variants: secrets in refused bodies and refused keys.
    await full.post(
      '/v1/trunks',
      trunkBody({ sip_username: 'bad name!', sip_password: PASSWORDS[0], openai_api_key: OPENAI[0] }),
    );
    await full.call('POST', '/v1/trunks', {
      rawBody: `{"sip_password":"${PASSWORDS[1]}", oops}`,
      headers: { 'content-type': 'application/json' },
    });
    await full.post('/v1/trunks', trunkBody({ sip_password: PASSWORDS[2], openai_api_key: 'not-an-openai-key' }));
    await read.patch(`/v1/trunks/${openai.body.id}`, { openai_api_key: OPENAI[1] });
    expect((await app.admin.delete(`/v1/api-keys/${revoked.id}`)).status).toBe(204);
    await app.anonymous.get('/v1/trunks', { key: revoked.key });
    await app.anonymous.get('/v1/trunks', { headers: { authorization: `Basic ${revoked.key}` } });
    await full.delete(`/v1/trunks/${custom.body.id}`);
    await full.delete(`/v1/webhook-endpoints/${hook.body.id}`);
    await waitFor(() => received.length > 0);
    expect(received.join('\n')).toMatch(/webhook-signature/);

    const logs = app.logs;
    expect(logs.length).toBeGreaterThan(50);
    expect(secrets.size).toBeGreaterThan(20);
    const leaks = [...secrets].flatMap((secret) =>
      logs.filter((line) => line.includes(secret)).map((line) => `${secret.slice(0, 8)}…: ${line.slice(0, 200)}`),
    );
    expect(leaks).toEqual([]);
  });
});

async function waitFor(condition: () => boolean, ms = SETTLE_DEADLINE_MS): Promise<void> {
  const until = Date.now() + ms;
  while (!condition() && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 50));
}
