import { ApiClient, expectError } from '../support/http-client';
import { SseConnection, SseEvent } from '../support/sse-client';
import { provisionAccountDirect, startTestApp, TestApp } from '../support/test-app';
import { trunkBody } from '../support/trunk-requests';
import { CALL_RECORD_WRITER } from '../../src/calls/ingestion/call-ingestion.service';
import type { CallRecordWriter } from '../../src/calls/ingestion/call-record.writer';
import { validateCallRecord } from '../../src/calls/ingestion/call-record.validation';

const MINUTE = 60_000;
const DAY = 86_400_000;

/** Every stored version once: `id@version` for calls, `rejection:id` for rejections. */
const keysOf = (events: SseEvent[]) =>
  events
    .filter((e) => e.event !== 'ready')
    .map((e) => (e.event === 'call' ? `${e.data.id}@${e.data.version}` : `rejection:${e.data.id}`));

describe('GET /v1/calls/stream: calls and rejections as they are stored', () => {
  let app: TestApp;
  let alice: { key: string; client: ApiClient };
  let bob: { key: string; client: ApiClient };
  let trunkId: string;
  let bobTrunkId: string;
  const now = Date.now();
  const open = async (key: string, options: { lastEventId?: string; query?: string } = {}) => {
    const stream = await SseConnection.open(alice.client.origin, app.running.tls?.cert, key, options);
    if (!(stream instanceof SseConnection)) throw new Error(`stream refused: ${JSON.stringify(stream)}`);
    streams.push(stream);
    await stream.until((events) => events.some((e) => e.event === 'ready'), 'ready event');
    return stream;
  };
  const streams: SseConnection[] = [];
  const record = (id: string, startMs: number, trunk = trunkId, status = 'connected') => ({
    id,
    trunk_id: trunk,
    from: '+14155550100',
    to: '+14155550199',
    status,
    start_time: new Date(startMs).toISOString(),
    duration_seconds: 30,
  });
  const ingest = async (client: ApiClient, records: object[], path = '/v1/ingest/calls') => {
    const response = await client.call('POST', path, {
      rawBody: records.map((r) => JSON.stringify(r)).join('\n'),
      headers: { 'content-type': 'application/x-ndjson' },
    });
    expect(response.body).toEqual({ accepted: records.length, rejected: [] });
  };
  const rejection = (id: string) => ({
    id,
    at: new Date(now - MINUTE).toISOString(),
    reason: 'auth_failed',
    sip_code: 403,
    sip_reason: 'Wrong password',
    source_address: '192.0.2.10',
    trunk_id: trunkId,
    from: '+14155550100',
    to: '+442071838750',
  });

  beforeAll(async () => {
    // Read the store every six hours only: what arrives in time was woken by ingestion's notice.
    app = await startTestApp({ CALL_STREAM_POLL_MS: String(6 * 3_600_000) });
    alice = await provisionAccountDirect(app, ['full']);
    bob = await provisionAccountDirect(app, ['full'], 'Other');
    trunkId = (await alice.client.post('/v1/trunks', trunkBody())).body.id;
    bobTrunkId = (await bob.client.post('/v1/trunks', trunkBody())).body.id;
  });
  afterAll(async () => {
    for (const stream of streams) stream.close();
    await app.stop();
  });

  it('sends a call record and a rejection stored after subscribing, as the list and the feed show them', async () => {
    await ingest(alice.client, [record('call_streamBefore', now - MINUTE)]);
    const stream = await open(alice.key);
    await ingest(alice.client, [record('call_streamAfter', now - MINUTE)]);
    await ingest(alice.client, [rejection('rej_streamAfter')], '/v1/ingest/rejections');
    await stream.until((events) => events.some((e) => e.event === 'rejection'), 'rejection');
    await stream.until((events) => events.some((e) => e.event === 'call'), 'call');
    // What was stored before the stream opened is not sent again.
    expect(keysOf(stream.events).filter((k) => k.startsWith('call_'))).toEqual([
      expect.stringMatching(/^call_streamAfter@\d+$/),
    ]);
    const [call] = stream.ofKind('call');
    const listed = (await alice.client.get('/v1/calls?limit=100')).body.calls.find(
      (c: { id: string }) => c.id === 'call_streamAfter',
    );
    expect(call.data).toMatchObject(listed);
    expect(call.data.version).toEqual(expect.any(Number));
    const [rejected] = stream.ofKind('rejection');
    expect(rejected.data).toMatchObject({
      id: 'rej_streamAfter',
      trunk_id: trunkId,
      reason: 'auth_failed',
      sip_code: 403,
    });
    expect(stream.events.every((e) => /^[A-Za-z0-9_-]+$/.test(e.id))).toBe(true);
  });

  it('resumes a dropped stream from Last-Event-ID with every record once: stored while away, late, re-sent', async () => {
    const first = await open(alice.key);
    await ingest(alice.client, [record('call_resumeA', now - MINUTE), record('call_resumeB', now - 2 * MINUTE)]);
    await first.until((events) => keysOf(events).length >= 2, 'two calls');
    first.close();
    const seen = keysOf(first.events);
    // While away: a late arrival (a start_time days old), a re-send of a call already sent, a rejection.
    await ingest(alice.client, [record('call_resumeLate', now - 3 * DAY)]);
    await ingest(alice.client, [record('call_resumeA', now - MINUTE, trunkId, 'disconnected')]);
    await ingest(alice.client, [rejection('rej_resume')], '/v1/ingest/rejections');
    const second = await open(alice.key, { lastEventId: first.lastEventId });
    await ingest(alice.client, [record('call_resumeC', now)]);
    await second.until(
      (events) => keysOf(events).some((k) => k.startsWith('call_resumeC@')),
      'the call after resuming',
    );
    const all = [...seen, ...keysOf(second.events)];
    expect(new Set(all).size).toBe(all.length);
    expect(all.map((k) => k.replace(/@\d+$/, '')).sort()).toEqual(
      [
        'call_resumeA',
        'call_resumeA',
        'call_resumeB',
        'call_resumeC',
        'call_resumeLate',
        'rejection:rej_resume',
      ].sort(),
    );
    const resent = second.ofKind('call').find((e) => e.data.id === 'call_resumeA');
    expect(resent?.data.status).toBe('disconnected');

    // From the middle of what the second stream sent, by the query parameter (EventSource cannot set
    // headers on its first request): exactly what came after that event.
    const middle = second.events.findIndex((e) => e.event !== 'ready');
    const third = await open(alice.key, { query: `last_event_id=${second.events[middle].id}` });
    const after = keysOf(second.events.slice(middle + 1));
    await third.until((events) => keysOf(events).length >= after.length, 'the events after the middle');
    // Calls and rejections each in their stored order; the two orders interleave as they are read.
    const byKind = (keys: string[]) => [
      keys.filter((k) => k.startsWith('call_')),
      keys.filter((k) => !k.startsWith('call_')),
    ];
    expect(byKind(keysOf(third.events))).toEqual(byKind(after));
  });

  it("never sends another account's records or rejections", async () => {
    const theirs = await open(bob.key);
    const mine = await open(alice.key);
    await ingest(alice.client, [record('call_isolatedAlice', now)]);
    await ingest(alice.client, [rejection('rej_isolatedAlice')], '/v1/ingest/rejections');
    await mine.until((events) => keysOf(events).length >= 2, "alice's call and rejection");
    await ingest(bob.client, [record('call_isolatedBob', now, bobTrunkId)]);
    await theirs.until((events) => keysOf(events).length >= 1, "bob's call");
    expect(keysOf(theirs.events)).toEqual([expect.stringMatching(/^call_isolatedBob@/)]);
    expect(keysOf(mine.events).every((k) => !k.includes('Bob'))).toBe(true);
    // A position taken from alice's stream shows bob only bob's records.
    const borrowed = await open(bob.key, { lastEventId: mine.events[0].id });
    await ingest(bob.client, [record('call_isolatedBob2', now, bobTrunkId)]);
    await borrowed.until((events) => keysOf(events).some((k) => k.startsWith('call_isolatedBob2@')), "bob's call");
    expect(keysOf(borrowed.events).every((k) => k.includes('Bob'))).toBe(true);
  });

  it('refuses an event id it did not send with 400 naming the parameter, and keys that may not read', async () => {
    const ca = app.running.tls?.cert;
    const origin = alice.client.origin;
    for (const [options, param] of [
      [{ lastEventId: 'not-an-id' }, 'Last-Event-ID'],
      [{ lastEventId: Buffer.from(JSON.stringify(['live', 'x', [1, 'a']])).toString('base64url') }, 'Last-Event-ID'],
      [
        { lastEventId: Buffer.from(JSON.stringify(['live', 'abc', [1, '', '']])).toString('base64url') },
        'Last-Event-ID',
      ],
      [{ query: 'last_event_id=%7B%7D' }, 'last_event_id'],
      [{ query: `last_event_id=${Buffer.from('["live"]').toString('base64url')}` }, 'last_event_id'],
    ] as const) {
      const answer = await SseConnection.open(origin, ca, alice.key, options);
      expect(answer).toEqual({
        status: 400,
        body: { error: expect.objectContaining({ code: 'invalid_params', param, status: 400 }) },
      });
    }
    expectError(await alice.client.get('/v1/calls/stream?since=1'), 400, 'invalid_params');
    expectError(await alice.client.get('/v1/calls/stream', { key: null }), 401, 'missing_authentication');
    const ingestOnly = await provisionAccountDirect(app, ['ingest'], 'Ingest only');
    expectError(await alice.client.get('/v1/calls/stream', { key: ingestOnly.key }), 403, 'forbidden');
    const reader = await provisionAccountDirect(app, ['read'], 'Reader');
    const readOnly = await alice.client.get('/v1/calls/stream', { key: reader.key });
    expect(readOnly.status).toBe(200);
    expect(readOnly.headers['content-type']).toMatch(/^text\/event-stream/);
    expect(readOnly.headers['x-ratelimit-limit']).toBeDefined();
  });
});

describe('GET /v1/calls/stream: a client that does not read', () => {
  const MAX_BUFFER = 64 * 1024;
  let app: TestApp;
  let alice: { accountId: string; key: string; client: ApiClient };
  let trunkId: string;
  const streams: SseConnection[] = [];

  beforeAll(async () => {
    app = await startTestApp({ CALL_STREAM_MAX_BUFFER_BYTES: String(MAX_BUFFER), CALL_STREAM_HEARTBEAT_MS: '2000' });
    alice = await provisionAccountDirect(app, ['full']);
    trunkId = (await alice.client.post('/v1/trunks', trunkBody())).body.id;
  });
  let stopped = false;
  afterAll(async () => {
    for (const stream of streams) stream.close();
    if (!stopped) await app.stop();
  });

  it('is cut off with a bounded buffer, and resumes from its last whole event with every record once', async () => {
    const ca = app.running.tls?.cert;
    const stalled = await SseConnection.open(alice.client.origin, ca, alice.key, { paused: true });
    if (!(stalled instanceof SseConnection)) throw new Error(`stream refused: ${JSON.stringify(stalled)}`);
    streams.push(stalled);
    const cut = () => app.logs.find((line) => line.includes('call stream cut'));
    const ids: string[] = [];
    const start = Date.now() - 60 * 60_000;
    // Records until the service gives up on the client: the kernel's socket buffers take the first
    // megabytes, so how many depends on the machine, not on the service.
    for (let batch = 0; !cut(); batch++) {
      if (batch >= 100) throw new Error('the stream was never cut');
      const records = Array.from({ length: 2000 }, (_, i) => {
        const id = `call_flood${batch}x${i}`;
        ids.push(id);
        return {
          id,
          trunk_id: trunkId,
          from: '+14155550100',
          to: '+14155550199',
          status: 'connected',
          start_time: new Date(start + i * 1000).toISOString(),
          duration_seconds: 30,
        };
      });
      const response = await alice.client.call('POST', '/v1/ingest/calls', {
        rawBody: records.map((r) => JSON.stringify(r)).join('\n'),
        headers: { 'content-type': 'application/x-ndjson' },
      });
      expect(response.body.accepted).toBe(2000);
      // Give the stream its chance to notice (a hang guard: the loop ends on the log line, not on time).
      for (let wait = 0; wait < 20 && !cut(); wait++) await new Promise((resolve) => setTimeout(resolve, 250));
    }
    // What the service held for it stayed within the bound plus one round of reads (100 calls).
    const held = JSON.parse(cut()!).buffered as number;
    expect(held).toBeLessThanOrEqual(MAX_BUFFER + 100 * 1024);
    // The client now reads what reached it: whole events up to the cut, then the end.
    stalled.resume();
    await stalled.until(() => stalled.ended, 'end of the cut stream');
    expect(stalled.complete).toBe(false);
    expect(stalled.ended).toBe(true);
    const before = keysOf(stalled.events);
    expect(before.length).toBeLessThan(ids.length);
    const resumed = await SseConnection.open(alice.client.origin, ca, alice.key, { lastEventId: stalled.lastEventId });
    if (!(resumed instanceof SseConnection)) throw new Error(`resume refused: ${JSON.stringify(resumed)}`);
    streams.push(resumed);
    await resumed.until((events) => before.length + keysOf(events).length >= ids.length, 'every record');
    const all = [...before, ...keysOf(resumed.events)].map((k) => k.replace(/@\d+$/, ''));
    expect(all.length).toBe(ids.length);
    expect(new Set(all)).toEqual(new Set(ids));
  });

  it('reads the store on its own every CALL_STREAM_POLL_MS: a record stored with no notice still arrives', async () => {
    const open = await SseConnection.open(alice.client.origin, app.running.tls?.cert, alice.key);
    if (!(open instanceof SseConnection)) throw new Error(`stream refused: ${JSON.stringify(open)}`);
    streams.push(open);
    await open.until((events) => events.length > 0, 'ready event');
    // Straight to the writer, past the ingestion service that tells the streams: as if the notice
    // were lost (another instance's, with the bus reconnecting).
    const verdict = validateCallRecord({
      id: 'call_unannounced',
      trunk_id: trunkId,
      from: '+14155550100',
      to: '+14155550199',
      status: 'connected',
      start_time: new Date().toISOString(),
    });
    if (!verdict.ok) throw new Error(verdict.message);
    const writer = app.running.app.get<CallRecordWriter>(CALL_RECORD_WRITER, { strict: false });
    await writer.submit([{ ...verdict.record, account_id: alice.accountId, provider: 'openai' }]);
    await open.until((events) => events.some((e) => e.data.id === 'call_unannounced'), 'the unannounced call');
  });

  it('ends its open streams when the service stops, so the stop does not wait for them', async () => {
    const open = await SseConnection.open(alice.client.origin, app.running.tls?.cert, alice.key);
    if (!(open instanceof SseConnection)) throw new Error(`stream refused: ${JSON.stringify(open)}`);
    streams.push(open);
    await open.until((events) => events.length > 0, 'ready event');
    stopped = true;
    await app.stop();
    await open.until(() => open.ended, 'the end of the stream');
    // Ended by the service (the response's last chunk), not cut with the connections the stop
    // destroys after its grace period.
    expect(open.complete).toBe(true);
  });
});
