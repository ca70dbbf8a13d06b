import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { components, TrunklineClient } from '../../clients/typescript';
import { provisionAccountDirect, startTestApp, TestApp } from '../support/test-app';
import { ELEVENLABS_KEY, OPENAI_KEY } from '../support/trunk-requests';
import { typedClientFor } from '../support/typed-client';

const ROOT = join(__dirname, '..', '..');
const unique = () => Math.random().toString(36).slice(2, 10);

/** A custom-agent trunk's create body, typed by the generated client's schema. */
function customTrunk(prefix: string): components['schemas']['CreateTrunkRequestDto'] {
  const id = unique();
  return {
    name: `${prefix} ${id}`,
    ai_provider: 'custom',
    sip_username: `${prefix}-${id}`,
    sip_password: 'correct-horse-battery',
    custom_endpoint: 'wss://agent.example.com/ws',
  };
}

/** The generated client (clients/typescript) drives the real app over HTTPS, every optional string field set. */
describe('the typed client', () => {
  let app: TestApp;
  let accountId: string;
  let key: string;
  let client: TrunklineClient;
  let admin: TrunklineClient;
  const closers: Array<() => Promise<void>> = [];

  beforeAll(async () => {
    app = await startTestApp({ WEBHOOK_ALLOW_PRIVATE: 'true' });
    ({ accountId, key } = await provisionAccountDirect(app));
    const forKey = typedClientFor(app, key);
    const forAdmin = typedClientFor(app, app.adminKey);
    client = forKey.client;
    admin = forAdmin.client;
    closers.push(forKey.close, forAdmin.close);
  });
  afterAll(async () => {
    await Promise.all(closers.map((close) => close()));
    await app.stop();
  });

  it('creates, reads, lists, updates, rotates and deletes a trunk', async () => {
    const user = `typed-${unique()}`;
    const created = await client.POST('/trunks', {
      body: {
        name: `Typed ${user}`,
        ai_provider: 'openai',
        sip_username: user,
        sip_password: 'correct-horse-battery',
        openai_api_key: OPENAI_KEY,
        system_prompt: 'You answer the phone.',
        provider_settings: { model: 'gpt-realtime', voice: 'alloy' },
        allowed_addresses: ['203.0.113.0/24'],
      },
    });
    expect(created.response.status).toBe(201);
    const id = created.data!.id;
    expect(created.data).toMatchObject({ sip_username: user, status: 'active', ai_provider: 'openai' });

    const read = await client.GET('/trunks/{id}', { params: { path: { id } } });
    expect(read.data).toMatchObject({ id, system_prompt: 'You answer the phone.', vad: null });

    const list = await client.GET('/trunks', { params: { query: { limit: 100, status: 'active' } } });
    expect(list.data!.trunks.map((trunk) => trunk.id)).toContain(id);
    expect(list.data!.pagination.total).toBeGreaterThanOrEqual(1);

    const updated = await client.PATCH('/trunks/{id}', {
      params: { path: { id } },
      body: { name: `Renamed ${user}`, status: 'inactive', openai_api_key: OPENAI_KEY, system_prompt: 'Be brief.' },
    });
    expect(updated.data).toMatchObject({ id, name: `Renamed ${user}`, status: 'inactive' });

    const rotated = await client.POST('/trunks/{id}/rotate-password', { params: { path: { id } } });
    expect(rotated.data).toMatchObject({ id, sip_username: user });
    expect(rotated.data!.sip_password.length).toBeGreaterThanOrEqual(8);

    const deleted = await client.DELETE('/trunks/{id}', { params: { path: { id } } });
    expect(deleted.response.status).toBe(204);
    const gone = await client.GET('/trunks/{id}', { params: { path: { id } } });
    expect(gone.response.status).toBe(404);
    expect(gone.error!.error.code).toBe('not_found');
  });

  it("sets every optional string field of the other providers' trunks, keys, webhooks and alert rules", async () => {
    const eleven = await client.POST('/trunks', {
      body: {
        name: `Eleven ${unique()}`,
        ai_provider: 'elevenlabs',
        sip_username: `eleven-${unique()}`,
        sip_password: 'correct-horse-battery',
        elevenlabs_api_key: ELEVENLABS_KEY,
        elevenlabs_agent_id: 'agent_123',
      },
    });
    expect(eleven.response.status).toBe(201);
    const elevenId = eleven.data!.id;
    const patched = await client.PATCH('/trunks/{id}', {
      params: { path: { id: elevenId } },
      body: { elevenlabs_api_key: ELEVENLABS_KEY, elevenlabs_agent_id: 'agent_456', system_prompt: null },
    });
    expect(patched.response.status).toBe(200);

    const custom = await client.POST('/trunks', { body: customTrunk('custom') });
    const customPatch = await client.PATCH('/trunks/{id}', {
      params: { path: { id: custom.data!.id } },
      body: { custom_endpoint: 'wss://agent.example.com/v2' },
    });
    expect(customPatch.response.status).toBe(200);

    const issued = await admin.POST('/api-keys', {
      body: { account_id: accountId, name: 'typed', scopes: ['read'], expires_at: '2099-01-01T00:00:00.000Z' },
    });
    expect(issued.data).toMatchObject({ scopes: ['read'] });

    const endpoint = await client.POST('/webhook-endpoints', {
      body: { url: 'https://127.0.0.1:9/hook', description: 'my receiver', enabled: false },
    });
    expect(endpoint.data).toMatchObject({ description: 'my receiver', enabled: false });
    const endpointPatch = await client.PATCH('/webhook-endpoints/{id}', {
      params: { path: { id: endpoint.data!.id } },
      body: { url: 'https://127.0.0.1:9/other', description: null },
    });
    expect(endpointPatch.data).toMatchObject({ url: 'https://127.0.0.1:9/other', description: null });

    const rule = await client.POST('/alert-rules', {
      body: {
        name: 'slow AI',
        metric: 'p95_latency_ms',
        comparison: 'gt',
        threshold: 1500,
        window_minutes: 15,
        trunk_id: elevenId,
      },
    });
    expect(rule.data).toMatchObject({ name: 'slow AI', trunk_id: elevenId });
  });

  it("runs the README's example verbatim", async () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const example = readFileSync(join(ROOT, 'examples', 'typed-client.ts'), 'utf8');
    expect(readme).toContain(`\`\`\`ts\n${example}\`\`\``);
    const listed = await client.POST('/trunks', { body: customTrunk('listed') });
    const dir = mkdtempSync(join(tmpdir(), 'trunkline-ca-'));
    try {
      writeFileSync(join(dir, 'cert.pem'), app.running.tls!.cert);
      const { stdout } = await promisify(execFile)(
        process.execPath,
        ['-r', '@swc-node/register', join(ROOT, 'examples', 'typed-client.ts')],
        {
          cwd: ROOT,
          env: {
            ...process.env,
            TL: `https://localhost:${app.running.port}/v1`,
            KEY: key,
            NODE_EXTRA_CA_CERTS: join(dir, 'cert.pem'),
          },
        },
      );
      expect(stdout).toContain(`${listed.data!.id} ${listed.data!.name} active`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
