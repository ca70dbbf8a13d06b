import { StoredEvent } from '../../../src/infrastructure/event-store/event-store.port';
import { webhookEventsOf } from '../../../src/webhooks/projections/webhook-events';

const sealed = { v: 1, alg: 'A256GCM', iv: 'SEALED-IV', ct: 'SEALED-CT', tag: 'SEALED-TAG' };
const stored = (type: string, data: object, id = '7d0c1f7e-0000-4000-8000-000000000001'): StoredEvent => ({
  id,
  type,
  data,
  metadata: {},
  streamId: 's',
  revision: 0,
  position: { hi: 1n, lo: 1n },
  recordedAt: new Date('2026-11-21T10:00:00.000Z'),
  hash: null,
  previousHash: null,
});

describe('webhook events of stored events', () => {
  it('maps trunk events to public payloads that carry no secret, not even sealed', () => {
    const events = [
      stored('TrunkCreated', {
        trunk_id: 'conn_1',
        account_id: 'acct_1',
        name: 'Main',
        ai_provider: 'openai',
        sip_username: 'main',
        sip_password: sealed,
        wiring: { openai_api_key: sealed },
        settings: {},
        created_at: 'c',
      }),
      stored('TrunkUpdated', {
        trunk_id: 'conn_1',
        account_id: 'acct_1',
        changes: { name: 'New', wiring: { openai_api_key: sealed } },
        updated_at: 'u',
      }),
      stored('SipPasswordRotated', {
        trunk_id: 'conn_1',
        account_id: 'acct_1',
        sip_username: 'main',
        sip_password: sealed,
        rotated_at: 'r',
      }),
      stored('TrunkDeleted', {
        trunk_id: 'conn_1',
        account_id: 'acct_1',
        sip_username: 'main',
        name: 'New',
        deleted_at: 'd',
      }),
    ].flatMap(webhookEventsOf);
    expect(events.map((e) => e.type)).toEqual([
      'trunk.created',
      'trunk.updated',
      'trunk.password_rotated',
      'trunk.deleted',
    ]);
    expect(events[1].data).toEqual({
      id: 'conn_1',
      changed_fields: ['name', 'openai_api_key'],
      changes: { name: 'New' },
      updated_at: 'u',
    });
    expect(JSON.stringify(events)).not.toMatch(/SEALED|sip_password|"ct"/);
  });

  it('derives the same event id from the same stored event, and another from another', () => {
    const data = { trunk_id: 'conn_1', account_id: 'acct_1', sip_username: 'main', name: 'n', deleted_at: 'd' };
    const [a] = webhookEventsOf(stored('TrunkDeleted', data));
    const [b] = webhookEventsOf(stored('TrunkDeleted', data));
    const [c] = webhookEventsOf(stored('TrunkDeleted', data, '7d0c1f7e-0000-4000-8000-000000000002'));
    expect(a.id).toMatch(/^evt_[A-Za-z0-9]{24}$/);
    expect(b.id).toBe(a.id);
    expect(c.id).not.toBe(a.id);
  });

  it('splits a batch of completed calls into events of at most 100 calls', () => {
    const calls = Array.from({ length: 250 }, (_, i) => ({ id: `call_${i}` }));
    const events = webhookEventsOf(stored('CallsCompleted', { account_id: 'acct_1', batch_id: 'b', calls }));
    expect(events.map((e) => (e.data as { calls: unknown[] }).calls.length)).toEqual([100, 100, 50]);
    expect(new Set(events.map((e) => e.id)).size).toBe(3);
  });

  it('sends a ping only to the endpoint that asked, with the event id it was given', () => {
    const [ping] = webhookEventsOf(
      stored('WebhookEndpointPinged', {
        endpoint_id: 'we_1',
        account_id: 'acct_1',
        event_id: 'evt_given',
        requested_at: 'p',
      }),
    );
    expect(ping).toMatchObject({ id: 'evt_given', type: 'ping', onlyEndpoint: 'we_1' });
  });

  it('ignores events that are not webhook sources', () => {
    expect(webhookEventsOf(stored('ApiKeyIssued', { key_id: 'key_1' }))).toEqual([]);
  });
  it('maps a completed export to export.completed with where to download it and until when', () => {
    const data = {
      export_id: 'exp_1',
      account_id: 'acct_1',
      format: 'csv',
      rows: 12,
      bytes: 3456,
      completed_at: '2026-11-21T10:00:05.000Z',
      expires_at: '2026-11-22T10:00:05.000Z',
    };
    const [event, ...more] = webhookEventsOf(stored('ExportCompleted', data));
    expect(more).toEqual([]);
    expect(event).toMatchObject({ type: 'export.completed', accountId: 'acct_1' });
    expect(event.data).toEqual({
      id: 'exp_1',
      status: 'completed',
      format: 'csv',
      rows: 12,
      bytes: 3456,
      file_url: '/v1/exports/exp_1/file',
      completed_at: '2026-11-21T10:00:05.000Z',
      expires_at: '2026-11-22T10:00:05.000Z',
    });
    for (const type of ['ExportRequested', 'ExportStarted', 'ExportFailed', 'ExportExpired'])
      expect(webhookEventsOf(stored(type, data))).toEqual([]);
  });
});
