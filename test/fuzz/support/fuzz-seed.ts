import { SETTLE_DEADLINE_MS } from '../../support/deadlines';
import { ApiClient } from '../../support/http-client';
import { TestApp } from '../../support/test-app';
import { FuzzWorld, Owner } from './fuzz-world';

/** Two accounts, keys of every scope, a revoked and an expired key, trunks and calls in both. */
export async function buildWorld(app: TestApp): Promise<FuzzWorld> {
  const account = async (name: string) => (await must(app.admin.post('/v1/accounts', { name }), 201)).id as string;
  const key = async (accountId: string, scopes: string[], expires_at?: string) =>
    (await must(
      app.admin.post('/v1/api-keys', {
        account_id: accountId,
        name: `fuzz ${scopes.join('+')}`,
        scopes,
        ...(expires_at ? { expires_at } : {}),
      }),
      201,
    )) as { id: string; key: string };
  // Far enough ahead for a busy machine's setup; the app's clock is moved past it at the end.
  const expiresAt = app.clock.now().getTime() + SETTLE_DEADLINE_MS;
  const own = await account('Fuzz own');
  const other = await account('Fuzz other');
  const issued = {
    full: await key(own, ['full']),
    read: await key(own, ['read']),
    ingest: await key(own, ['ingest']),
    audit: await key(own, ['audit']),
    otherFull: await key(other, ['full']),
    otherIngest: await key(other, ['ingest']),
    revoked: await key(own, ['full']),
    expired: await key(own, ['full'], new Date(expiresAt).toISOString()),
  };
  await must(app.admin.delete(`/v1/api-keys/${issued.revoked.id}`), 204);
  const world = new FuzzWorld(
    {
      admin: app.adminKey,
      own: { full: issued.full.key, read: issued.read.key, ingest: issued.ingest.key, audit: issued.audit.key },
      other: { full: issued.otherFull.key, ingest: issued.otherIngest.key },
      revoked: issued.revoked.key,
      expired: issued.expired.key,
    },
    { own, other },
  );
  for (const k of Object.values(issued)) world.protectedIds.add(k.id);
  world.add('/v1/accounts', 'own', own);
  world.add('/v1/accounts', 'other', other);
  for (const [owner, full, ingest] of [
    ['own', issued.full.key, issued.ingest.key],
    ['other', issued.otherFull.key, issued.otherIngest.key],
  ] as const) {
    await seedTrunksAndCalls(world, app.admin.withKey(full), app.admin.withKey(ingest), owner);
  }
  // The expiry was set ahead (an instant in the past is refused): move the app's clock past it.
  app.clock.advance(Math.max(0, expiresAt - app.clock.now().getTime() + 1000));
  return world;
}

async function seedTrunksAndCalls(
  world: FuzzWorld,
  client: ApiClient,
  gateway: ApiClient,
  owner: Owner,
): Promise<void> {
  const bodies = [
    { ai_provider: 'openai', openai_api_key: `sk-${'a'.repeat(30)}` },
    { ai_provider: 'elevenlabs', elevenlabs_api_key: 'e'.repeat(24), elevenlabs_agent_id: 'agent_1' },
    { ai_provider: 'custom', custom_endpoint: 'wss://agent.example.com/ws' },
  ];
  const trunkIds: string[] = [];
  for (const extra of bodies) {
    const created = await must(
      client.post('/v1/trunks', {
        name: world.unique('Seed '),
        sip_username: world.unique('seed-'),
        sip_password: 'seed-password-1',
        ...extra,
      }),
      201,
    );
    world.learn('/v1/trunks', owner, 'POST', 201, created);
    trunkIds.push(created.id);
  }
  const now = Date.now();
  const calls = Array.from({ length: 30 }, (_, i) => ({
    id: world.unique('call_seed'),
    trunk_id: trunkIds[i % trunkIds.length],
    from: '+15550001111',
    to: '+15550002222',
    status: ['connected', 'failed', 'disconnected'][i % 3],
    start_time: new Date(now - (i + 1) * 3_600_000).toISOString(),
    end_time: new Date(now - (i + 1) * 3_600_000 + 60_000).toISOString(),
    carrier_lag_ms: 20 + i,
    ai_latency_ms: 300 + i,
    gateway_processing_ms: 5,
    metrics: { packet_loss_percent: 0.5, jitter_ms: 3, codec_used: i % 2 ? 'G711u' : 'G722' },
    turns: [{ turn_number: 1, speaker: 'caller', duration_ms: 1200, processing_time_ms: 0 }],
    sip_trace: 'INVITE\n100 Trying\n200 OK\nBYE',
    disconnect_reason: 'normal_clearing',
  }));
  const result = await must(gateway.post('/v1/ingest/calls', calls), 200);
  if (result.accepted !== calls.length)
    throw new Error(`seed ingestion rejected records: ${JSON.stringify(result.rejected)}`);
  for (const call of calls) world.add('/v1/calls', owner, call.id);
}

async function must(response: Promise<{ status: number; body: any; text: string }>, status: number): Promise<any> {
  const r = await response;
  if (r.status !== status) throw new Error(`fuzz world setup: expected ${status}, got ${r.status} ${r.text}`);
  return r.body;
}
