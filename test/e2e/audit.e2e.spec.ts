import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { comparePositions, decodePosition } from '../../src/infrastructure/event-store/event-store.port';
import { runToExit } from '../support/entry-process';
import { expectError } from '../support/http-client';
import { provisionAccount, startTestApp, type TestApp } from '../support/test-app';
import { customBody, trunkBody } from '../support/trunk-requests';
import { allAuditEvents, exportOf, verifyText, waitFor } from './audit-support';

/** The audit log over HTTPS on the embedded store: list, verify, export, offline verify, point in time. */
describe('audit log (e2e, PGlite)', () => {
  let app: TestApp;
  let acme: Awaited<ReturnType<typeof provisionAccount>>;
  let auditor: Awaited<ReturnType<typeof provisionAccount>>['client'];
  let trunkId: string;
  let rotatedAt: string;

  beforeAll(async () => {
    app = await startTestApp({ AUDIT_CHECKPOINT_INTERVAL_MS: '200', WEBHOOK_ALLOW_PRIVATE: 'true' });
    acme = await provisionAccount(app, ['full'], 'Acme audited');
    const key = await app.admin.post('/v1/api-keys', {
      account_id: acme.accountId,
      name: 'auditor',
      scopes: ['audit'],
    });
    auditor = app.admin.withKey(key.body.key);
    const trunk = await acme.client.post('/v1/trunks', trunkBody({ system_prompt: 'Be brief.' }));
    trunkId = trunk.body.id;
    expect((await acme.client.patch(`/v1/trunks/${trunkId}`, { name: 'Renamed line' })).status).toBe(200);
    const rotated = await acme.client.post(`/v1/trunks/${trunkId}/rotate-password`);
    rotatedAt = rotated.body.rotated_at;
    expect(
      (
        await acme.client.post('/v1/webhook-endpoints', {
          url: 'https://127.0.0.1:9/hook',
          event_types: ['call.completed'],
        })
      ).status,
    ).toBe(201);
    expect(
      (
        await acme.client.post('/v1/alert-rules', {
          name: 'slow',
          metric: 'p95_latency_ms',
          comparison: 'gt',
          threshold: 900,
          window_minutes: 5,
        })
      ).status,
    ).toBe(201);
  });
  afterAll(() => app?.stop());

  it("lists every event of the account across its streams, in global order, with who acted and the chain's hashes", async () => {
    const events = await allAuditEvents(auditor, '', 2);
    const kinds = events.map((e) => `${e.resource_type}:${e.type}`);
    expect(kinds).toEqual(
      expect.arrayContaining([
        'account:AccountCreated',
        'api_key:ApiKeyIssued',
        'trunk:TrunkCreated',
        'trunk:TrunkUpdated',
        'trunk:SipPasswordRotated',
        'webhook_endpoint:WebhookEndpointCreated',
        'alert_rule:AlertRuleCreated',
      ]),
    );
    const positions = events.map((e) => e.position.split(':').map(BigInt));
    positions.slice(1).forEach(([hi, lo], i) => {
      const [phi, plo] = positions[i];
      expect(hi > phi || (hi === phi && lo > plo)).toBe(true);
    });
    const created = events.find((e) => e.type === 'TrunkCreated');
    expect(created).toMatchObject({
      resource_id: trunkId,
      stream_id: `trunk-${trunkId}`,
      revision: 0,
      previous_hash: null,
      actor: { key_id: acme.keyId, source_address: '127.0.0.1', request_id: expect.any(String) },
    });
    expect(created.hash).toMatch(/^[0-9a-f]{64}$/);
    const updated = events.find((e) => e.type === 'TrunkUpdated');
    expect(updated.previous_hash).toBe(created.hash);
    // The admin's events about the account are the account's too; the admin key is the actor.
    expect(events.find((e) => e.type === 'AccountCreated').actor.key_id).not.toBe(acme.keyId);
  });

  it('never shows a secret, not even its ciphertext: each sealed secret is the SHA-256 of its ciphertext', async () => {
    const events = await allAuditEvents(auditor);
    const text = JSON.stringify(events);
    for (const secret of ['correct-horse-battery', 'sk-test-', '"ct"', '"iv"', '"tag"', 'A256GCM'])
      expect(text).not.toContain(secret);
    const created = events.find((e) => e.type === 'TrunkCreated');
    expect(created.data.sip_password).toEqual({ sealed_sha256: expect.stringMatching(/^[0-9a-f]{64}$/) });
    expect(created.data.wiring.openai_api_key).toEqual({ sealed_sha256: expect.stringMatching(/^[0-9a-f]{64}$/) });
    const endpoint = events.find((e) => e.type === 'WebhookEndpointCreated');
    expect(endpoint.data.secret).toEqual({ sealed_sha256: expect.stringMatching(/^[0-9a-f]{64}$/) });
  });

  it('filters by resource, actor, type and time, and a cursor pages through exactly the filtered events', async () => {
    const all = await allAuditEvents(auditor);
    const trunkOnly = await allAuditEvents(auditor, `resource_type=trunk&resource_id=${trunkId}`, 1);
    expect(trunkOnly.map((e) => e.type)).toEqual(['TrunkCreated', 'TrunkUpdated', 'SipPasswordRotated']);
    expect((await allAuditEvents(auditor, `resource_id=${trunkId}`)).map((e) => e.id)).toEqual(
      trunkOnly.map((e) => e.id),
    );
    expect((await allAuditEvents(auditor, 'resource_type=alert_rule')).map((e) => e.type)).toEqual([
      'AlertRuleCreated',
    ]);
    const byKey = await allAuditEvents(auditor, `actor=${acme.keyId}`);
    expect(byKey.length).toBeGreaterThanOrEqual(5);
    expect(byKey.every((e) => e.actor.key_id === acme.keyId)).toBe(true);
    const typed = await allAuditEvents(auditor, 'type=SipPasswordRotated,AccountCreated');
    expect(typed.map((e) => e.type).sort()).toEqual(['AccountCreated', 'SipPasswordRotated']);
    const later = await allAuditEvents(auditor, `from=${encodeURIComponent(rotatedAt)}`);
    expect(later.length).toBeLessThan(all.length);
    expect(later.every((e) => e.occurred_at >= rotatedAt)).toBe(true);
    const earlier = await allAuditEvents(auditor, `to=${encodeURIComponent(rotatedAt)}`);
    expect(earlier.every((e) => e.occurred_at <= rotatedAt)).toBe(true);
  });

  it('answers malformed filters and cursors with 400 invalid_params in the error envelope', async () => {
    const first = await auditor.get('/v1/audit-events?limit=1');
    const cursor = first.body.pagination.next_cursor as string;
    for (const query of [
      'limit=0',
      'limit=101',
      'limit=ten',
      'from=yesterday',
      'to=2026-13-01T00:00:00Z',
      'from=2026-11-02T00:00:00Z&to=2026-11-01T00:00:00Z',
      'resource_type=invoice',
      'resource_id=bad%20id',
      'actor=key%20one',
      'type=Trunk-Created',
      'cursor=not*a*cursor',
      `cursor=${Buffer.from('["1:2"]').toString('base64url')}`,
      `cursor=${Buffer.from('["99999999999999999999:2","x"]').toString('base64url')}`,
      `cursor=${cursor}&resource_type=trunk`,
      'limit=1&limit=2',
      'unknown=1',
    ]) {
      const response = await auditor.get(`/v1/audit-events?${query}`);
      expectError(response, 400, 'invalid_params');
    }
    expectError(await auditor.get('/v1/audit-events/export?from=soon'), 400, 'invalid_params');
  });

  it('lets the audit and full scopes in, and nobody else: an audit key reads nothing but the audit log', async () => {
    const reader = await app.admin.post('/v1/api-keys', { account_id: acme.accountId, name: 'ro', scopes: ['read'] });
    const ro = app.admin.withKey(reader.body.key);
    expectError(await ro.get('/v1/audit-events'), 403, 'forbidden');
    expectError(await ro.get('/v1/audit-events/verify'), 403, 'forbidden');
    expectError(await app.admin.get('/v1/audit-events'), 403, 'forbidden');
    expectError(await auditor.get('/v1/trunks'), 403, 'forbidden');
    expect((await acme.client.get('/v1/audit-events?limit=1')).status).toBe(200);
    expect((await auditor.get('/v1/audit-events/export')).status).toBe(200);
    const doc = (await app.anonymous.get('/v1/openapi.json')).body;
    for (const path of ['/v1/audit-events', '/v1/audit-events/verify', '/v1/audit-events/export'])
      expect(Object.keys(doc.paths).some((p) => p.endsWith(path.slice(3)))).toBe(true);
    expect(JSON.stringify(doc.components.schemas)).toContain('"audit"');
  });

  it('never shows one account the events of another', async () => {
    const other = await provisionAccount(app, ['full'], 'Other audited');
    await other.client.post('/v1/trunks', customBody());
    const theirs = await allAuditEvents(other.client);
    expect(theirs.length).toBeGreaterThan(0);
    expect(theirs.every((e) => e.data.account_id === other.accountId)).toBe(true);
    expect((await allAuditEvents(other.client, `resource_id=${trunkId}`)).length).toBe(0);
    const ours = await allAuditEvents(auditor);
    expect(ours.every((e) => e.data.account_id === acme.accountId)).toBe(true);
    const exported = await exportOf(other.client);
    expect(exported.text).not.toContain(trunkId);
    expect(exported.text).not.toContain(acme.accountId);
  });

  it('records checkpoints while events arrive and verify recomputes the chain and every checkpoint', async () => {
    const verified = await waitFor(
      async () => (await auditor.get('/v1/audit-events/verify')).body,
      (body) => body.checkpoints.verified >= 1,
    );
    expect(verified).toMatchObject({ verified: true, break: null, unchained: 0 });
    // Checkpoints keep arriving (every 200 ms here), so the list read after verify may hold events
    // verify did not see: compare verify with the list's prefix up to the head verify reports.
    const listed = await allAuditEvents(auditor);
    const headAt = listed.findIndex((e) => e.position === verified.head.position);
    expect(headAt).toBeGreaterThanOrEqual(0);
    const events = listed.slice(0, headAt + 1);
    // Positions are "transaction:sequence" (encodePosition), compared as pairs.
    const head = decodePosition(verified.head.position);
    expect(listed.slice(headAt + 1).every((e) => comparePositions(decodePosition(e.position), head) > 0)).toBe(true);
    expect(verified.events).toBe(events.length);
    expect(verified.head).toMatchObject({
      position: events[events.length - 1].position,
      hash: events[events.length - 1].hash,
    });
    const checkpoint = events.filter((e) => e.type === 'AuditCheckpointRecorded').pop();
    expect(checkpoint).toMatchObject({
      resource_type: 'audit_checkpoint',
      actor: { key_id: 'system:audit' },
      data: { account_id: acme.accountId, root: expect.stringMatching(/^[0-9a-f]{64}$/) },
    });
    expect(checkpoint.data.streams).toBeGreaterThanOrEqual(5);
  });

  it('still verifies a deleted (crypto-shredded) trunk: the hashes cover the ciphertext, which stays', async () => {
    const doomed = await acme.client.post('/v1/trunks', trunkBody());
    expect((await acme.client.delete(`/v1/trunks/${doomed.body.id}`)).status).toBe(204);
    const history = await allAuditEvents(auditor, `resource_type=trunk&resource_id=${doomed.body.id}`);
    expect(history.map((e) => e.type)).toEqual(['TrunkCreated', 'TrunkDeleted']);
    expect(history[0].data.sip_password.sealed_sha256).toMatch(/^[0-9a-f]{64}$/);
    const body = (await auditor.get('/v1/audit-events/verify')).body;
    expect(body).toMatchObject({ verified: true, break: null });
  });

  it('exports NDJSON and CSV that verify offline; a cut-off file is truncated, an edited one tampered', async () => {
    await waitFor(
      async () => (await auditor.get('/v1/audit-events/verify')).body,
      (body) => body.checkpoints.verified >= 1,
    );
    const ndjson = await exportOf(auditor);
    expect(ndjson.headers['content-type']).toMatch(/^application\/x-ndjson/);
    expect(String(ndjson.headers['content-disposition'])).toMatch(/^attachment; filename="audit-acct_/);
    const lines = ndjson.text
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines[0]).toMatchObject({ record: 'header', account_id: acme.accountId, events_before: 0 });
    expect(lines[lines.length - 1]).toMatchObject({ record: 'end', events: lines.length - 2 });
    expect(lines.some((l) => l.type === 'AuditCheckpointRecorded')).toBe(true);
    expect(ndjson.text).not.toContain('correct-horse-battery');
    const report = await verifyText(ndjson.text);
    expect(report).toMatchObject({ verdict: 'verified', format: 'ndjson' });
    expect(report.outcome?.checkpoints.verified).toBeGreaterThanOrEqual(1);

    const csv = await exportOf(auditor, '', 'text/csv');
    expect(csv.headers['content-type']).toMatch(/^text\/csv/);
    expect(csv.text.split('\r\n')[0]).toBe(
      'record,position,id,stream_id,revision,type,resource_type,resource_id,actor_key_id,source_address,request_id,occurred_at,hash,previous_hash,data,metadata',
    );
    expect((await verifyText(csv.text)).verdict).toBe('verified');

    expect((await verifyText(ndjson.text.slice(0, Math.floor(ndjson.text.length * 0.6)))).verdict).toBe('truncated');
    const cutAtLine = ndjson.text.split('\n').slice(0, 4).join('\n') + '\n';
    expect((await verifyText(cutAtLine)).verdict).toBe('truncated');
    expect((await verifyText(csv.text.slice(0, csv.text.length - 40))).verdict).toBe('truncated');
    const edited = ndjson.text.replace('"name":"Renamed line"', '"name":"Another line"');
    expect(edited).not.toBe(ndjson.text);
    const tampered = await verifyText(edited);
    expect(tampered).toMatchObject({ verdict: 'tampered', outcome: { break: { reason: 'hash_mismatch' } } });
    const dropped = lines
      .filter((l) => l.type !== 'TrunkUpdated')
      .map((l) => JSON.stringify(l))
      .join('\n');
    expect((await verifyText(dropped)).verdict).toBe('tampered');
  });

  it('exports a window that verifies from the heads before it', async () => {
    const window = await exportOf(auditor, `from=${encodeURIComponent(rotatedAt)}`);
    const lines = window.text
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines[0].events_before).toBeGreaterThan(0);
    expect(lines.filter((l) => l.record === 'head').length).toBeGreaterThan(0);
    expect(lines.find((l) => l.record === 'event').occurred_at >= rotatedAt).toBe(true);
    expect((await verifyText(window.text)).verdict).toBe('verified');
    const until = await exportOf(auditor, `to=${encodeURIComponent(rotatedAt)}`);
    expect((await verifyText(until.text)).verdict).toBe('verified');
  });

  it('npm run audit:verify checks a file with no access to the service, and says truncated for a cut-off one', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'trunkline-audit-'));
    const text = (await exportOf(auditor)).text;
    writeFileSync(join(dir, 'full.ndjson'), text);
    writeFileSync(join(dir, 'cut.ndjson'), text.slice(0, text.length - 30));
    writeFileSync(join(dir, 'edited.ndjson'), text.replace('"name":"Renamed line"', '"name":"Other line"'));
    const run = (file: string) => runToExit('src/cli/audit-verify.ts', [join(dir, file)], {});
    const full = await run('full.ndjson');
    expect(full).toMatchObject({ code: 0, stdout: expect.stringContaining('VERIFIED') });
    const cut = await run('cut.ndjson');
    expect(cut).toMatchObject({ code: 2, stdout: expect.stringContaining('TRUNCATED') });
    const edited = await run('edited.ndjson');
    expect(edited).toMatchObject({ code: 1, stdout: expect.stringContaining('hash_mismatch') });
  });

  it('lists the trunks of the whole account as they were at an instant (GET /v1/trunks?as_of=)', async () => {
    const client = acme.client;
    const first = await client.post('/v1/trunks', customBody({ name: 'Point in time A' }));
    await new Promise((resolve) => setTimeout(resolve, 20));
    const afterFirst = new Date().toISOString();
    await new Promise((resolve) => setTimeout(resolve, 20));
    const second = await client.post('/v1/trunks', customBody({ name: 'Point in time B' }));
    await client.patch(`/v1/trunks/${first.body.id}`, { name: 'Point in time A2', status: 'inactive' });
    await client.delete(`/v1/trunks/${second.body.id}`);
    const listAt = async (asOf: string, extra = '') =>
      (await client.get(`/v1/trunks?as_of=${encodeURIComponent(asOf)}&limit=100${extra}`)).body;
    const then = await listAt(afterFirst);
    const names = then.trunks.map((t: any) => t.name);
    expect(names).toContain('Point in time A');
    expect(names).not.toContain('Point in time B');
    expect(then.trunks.find((t: any) => t.id === first.body.id)).toMatchObject({
      status: 'active',
      stats: { calls_today: 0 },
    });
    const now = await listAt(new Date().toISOString());
    expect(now.trunks.map((t: any) => t.name)).toContain('Point in time A2');
    expect(now.trunks.map((t: any) => t.id)).not.toContain(second.body.id);
    expect(now.pagination.total).toBe((await client.get('/v1/trunks?limit=100')).body.pagination.total);
    expect((await listAt(new Date().toISOString(), '&status=inactive')).trunks.map((t: any) => t.id)).toEqual([
      first.body.id,
    ]);
    expect((await listAt('2000-01-01T00:00:00Z')).trunks).toEqual([]);
    expectError(await client.get('/v1/trunks?as_of=last-tuesday'), 400, 'invalid_params');
  });
});
