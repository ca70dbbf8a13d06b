import { ApiClient, expectError } from '../support/http-client';
import { provisionAccountDirect, startTestApp, TestApp } from '../support/test-app';
import { customBody } from '../support/trunk-requests';
import { SETTLE_DEADLINE_MS } from '../support/deadlines';
import { until } from '../support/free-port';

/**
 * Records as a SIP gateway sends them (docs/sip-gateway.md): callers as given, signalling times
 * with milliseconds and no media metrics, the status and class from the SIP code, and the
 * rejection log with its counts in the overview.
 */
const ndjson = (records: object[]) => records.map((r) => JSON.stringify(r)).join('\n');

describe('call records and rejections from a SIP gateway', () => {
  let app: TestApp;
  let gateway: ApiClient;
  let alice: ApiClient;
  let bob: ApiClient;
  let trunk: { id: string; sip_username: string };
  const base = Date.now() - 3_600_000;
  const at = (ms: number) => new Date(base + ms).toISOString();
  let seq = 0;

  /** A call as the reference gateway reports it at dialog end: signalling only, no media. */
  const call = (overrides: Record<string, unknown> = {}) => ({
    id: `call_gw${seq++}`,
    trunk_id: trunk.id,
    from: '+14155550100',
    to: '+442071838750',
    start_time: at(0),
    invite_at: at(0),
    ringing_at: at(120),
    answered_at: at(1_345),
    end_time: at(31_346),
    sip_code: 200,
    sip_reason: 'OK',
    disconnect_reason: 'caller_hangup',
    source_address: '127.0.0.1',
    ...overrides,
  });

  const post = async (client: ApiClient, path: string, records: object[]) => {
    const response = await client.call('POST', path, {
      rawBody: ndjson(records),
      headers: { 'content-type': 'application/x-ndjson' },
    });
    expect(response.status).toBe(200);
    return response.body as { accepted: number; rejected: { index: number; code: string }[] };
  };

  beforeAll(async () => {
    app = await startTestApp({ ALERT_EVALUATION_INTERVAL_MS: '200' });
    const issued = await app.admin.post('/v1/api-keys', { name: 'sip gateway', scopes: ['gateway'] });
    gateway = app.admin.withKey(issued.body.key);
    alice = (await provisionAccountDirect(app, ['full'], 'Alice')).client;
    bob = (await provisionAccountDirect(app, ['full'], 'Bob')).client;
    trunk = (await alice.post('/v1/trunks', customBody())).body;
  });
  afterAll(() => app.stop());

  it('keeps callers that are not E.164 numbers as given, with the E.164 form beside them', async () => {
    const records = [
      call({ id: 'call_anon', from: 'anonymous' }),
      call({ id: 'call_uri', from: 'sip:+14155550199@carrier.example;user=phone' }),
      call({ id: 'call_user', from: 'alice', to: '2071838750' }),
    ];
    expect(await post(gateway, '/v1/ingest/calls', records)).toEqual({ accepted: 3, rejected: [] });
    const anon = (await alice.get('/v1/calls/call_anon')).body;
    expect(anon).toMatchObject({ from: 'anonymous', from_e164: null, to_e164: '+442071838750' });
    expect((await alice.get('/v1/calls/call_user')).body).toMatchObject({
      from: 'alice',
      to: '2071838750',
      to_e164: null,
    });
    const byNumber = await alice.get('/v1/calls?from=%2B14155550199');
    expect(byNumber.body.calls.map((c: { id: string }) => c.id)).toEqual(['call_uri']);
    expect(byNumber.body.calls[0].from).toBe('sip:+14155550199@carrier.example;user=phone');
  });

  it('takes a record without media, with its signalling times to the millisecond', async () => {
    await post(gateway, '/v1/ingest/calls', [call({ id: 'call_ms' })]);
    const detail = (await alice.get('/v1/calls/call_ms')).body;
    expect(detail).toMatchObject({
      status: 'connected',
      start_time: at(0),
      invite_at: at(0),
      ringing_at: at(120),
      answered_at: at(1_345),
      end_time: at(31_346),
      duration_seconds: 31,
      sip_code: 200,
      sip_reason: 'OK',
      failure_class: 'normal',
      retryable: false,
      source_address: '127.0.0.1',
      metrics: { carrier_lag_ms: null, ai_latency_ms: null, packet_loss_percent: null, codec_used: null },
      turns: [],
    });
  });

  it('derives the status from the SIP code by the failure taxonomy', async () => {
    const outcomes = [
      ['call_busy', { sip_code: 486, sip_reason: 'Busy Here' }, 'failed', 'capacity'],
      ['call_cancel', { sip_code: 487, sip_reason: 'Request Terminated' }, 'disconnected', 'normal'],
      ['call_noanswer', { sip_code: 408, sip_reason: 'Request Timeout' }, 'failed', 'agent_timeout'],
      ['call_agent500', { sip_code: 500, sip_reason: 'Server Internal Error' }, 'failed', 'agent_error'],
      ['call_dropped', { disconnect_reason: 'dialog_timeout' }, 'disconnected', 'network'],
    ] as const;
    const records = outcomes.map(([id, patch]) => {
      const unanswered = 'sip_code' in patch ? { answered_at: undefined, end_time: at(9_000) } : {};
      return call({ id, ...unanswered, ...patch });
    });
    expect((await post(gateway, '/v1/ingest/calls', records)).accepted).toBe(records.length);
    for (const [id, , status, failureClass] of outcomes) {
      expect((await alice.get(`/v1/calls/${id}`)).body).toMatchObject({ id, status, failure_class: failureClass });
    }
  });

  it('keeps what a media gateway measures: turns with barge-in, MOS, billable seconds; and sums them', async () => {
    const line = (await alice.post('/v1/trunks', customBody())).body;
    const media = (overrides: Record<string, unknown>) => call({ trunk_id: line.id, ...overrides });
    const turns = [
      { turn_number: 1, speaker: 'agent', duration_ms: 1800, processing_time_ms: 0, start_offset_ms: 1_400 },
      { turn_number: 2, speaker: 'caller', duration_ms: 2200, start_offset_ms: 3_600 },
      {
        turn_number: 3,
        speaker: 'agent',
        duration_ms: 900,
        processing_time_ms: 640,
        interrupted: true,
        start_offset_ms: 6_440,
      },
      { turn_number: 4, speaker: 'caller', duration_ms: 1500, start_offset_ms: 7_100 },
    ];
    const records = [
      // Answered 1.345 s in, ended 31.346 s in: 30 billable seconds of 31.
      media({
        id: 'call_media1',
        turns,
        metrics: {
          ai_latency_ms: 640,
          gateway_processing_ms: 3,
          carrier_lag_ms: 20,
          jitter_ms: 4,
          packet_loss_percent: 0.5,
          codec_used: 'PCMU',
          mos: 4.3149,
        },
      }),
      // The caller's RTP stopped: a media timeout, an abnormal end of an answered call.
      media({ id: 'call_media2', disconnect_reason: 'media_timeout', mos: 2.1, billable_seconds: 12 }),
      // The agent's WebSocket could not be reached: the carrier got 503, the class is stated.
      media({
        id: 'call_media3',
        answered_at: undefined,
        end_time: at(900),
        sip_code: 503,
        failure_class: 'agent_unreachable',
      }),
      // Cancelled while ringing: never answered, 0 billable, whatever its duration.
      media({ id: 'call_media4', answered_at: undefined, end_time: at(4_000), sip_code: 487 }),
    ];
    expect(await post(gateway, '/v1/ingest/calls', records)).toEqual({ accepted: 4, rejected: [] });

    const detail = (await alice.get('/v1/calls/call_media1')).body;
    expect(detail).toMatchObject({
      duration_seconds: 31,
      billable_seconds: 30,
      mos: 4.31,
      metrics: { mos: 4.31, codec_used: 'PCMU' },
    });
    expect(detail.turns).toEqual([
      { ...turns[0], interrupted: false },
      { ...turns[1], processing_time_ms: 0, interrupted: false },
      turns[2],
      { ...turns[3], processing_time_ms: 0, interrupted: false },
    ]);
    expect((await alice.get('/v1/calls/call_media2')).body).toMatchObject({
      status: 'disconnected',
      failure_class: 'network',
      retryable: true,
      disconnect_reason: 'media_timeout',
      billable_seconds: 12,
      mos: 2.1,
    });
    expect((await alice.get('/v1/calls/call_media3')).body).toMatchObject({
      status: 'failed',
      failure_class: 'agent_unreachable',
      billable_seconds: 0,
      mos: null,
    });
    const listed = await alice.get(`/v1/calls?trunk_id=${line.id}`);
    expect(
      Object.fromEntries(
        listed.body.calls.map((c: { id: string; billable_seconds: number; mos: number | null }) => [
          c.id,
          [c.billable_seconds, c.mos],
        ]),
      ),
    ).toEqual({ call_media1: [30, 4.31], call_media2: [12, 2.1], call_media3: [0, null], call_media4: [0, null] });

    const overview = (await alice.get(`/v1/analytics/overview?start_date=${at(-60_000)}&trunk_id=${line.id}`)).body;
    expect(overview.summary).toMatchObject({
      total_calls: 4,
      answered_calls: 2,
      total_duration_seconds: 31 + 31 + 0 + 4,
      avg_duration_seconds: 16.5,
      total_billable_seconds: 42,
      avg_billable_seconds: 21,
    });
    expect(overview.quality.avg_mos).toBe(3.21);
    // by_class counts the failed calls; the media timeout ended an answered call (disconnected).
    expect(overview.failures.by_class).toMatchObject({ agent_unreachable: 1, network: 0 });

    // A re-sent record replaces the old one in every sum.
    await post(gateway, '/v1/ingest/calls', [{ ...records[1], mos: 3.9, billable_seconds: 20 }]);
    const again = (await alice.get(`/v1/analytics/overview?start_date=${at(-60_000)}&trunk_id=${line.id}`)).body;
    expect(again.summary).toMatchObject({ answered_calls: 2, total_billable_seconds: 50 });
    expect(again.quality.avg_mos).toBe(4.11);
  });

  it('refuses a MOS, billable seconds or turn flag that cannot be, one record at a time', async () => {
    const result = await post(gateway, '/v1/ingest/calls', [
      call({ id: 'call_mos_high', mos: 4.6 }),
      call({ id: 'call_mos_low', metrics: { mos: 0.5 } }),
      call({ id: 'call_billable_long', billable_seconds: 32 }),
      call({ id: 'call_billable_unanswered', answered_at: undefined, sip_code: 486, billable_seconds: 3 }),
      call({ id: 'call_turn_flag', turns: [{ turn_number: 1, speaker: 'agent', duration_ms: 5, interrupted: 'yes' }] }),
      call({
        id: 'call_turn_offset',
        turns: [{ turn_number: 1, speaker: 'agent', duration_ms: 5, start_offset_ms: -1 }],
      }),
      call({ id: 'call_media_ok', mos: 1, billable_seconds: 0 }),
    ]);
    expect(result.accepted).toBe(1);
    expect(result.rejected.map((r) => [r.index, r.code])).toEqual([
      [0, 'invalid_field'],
      [1, 'invalid_field'],
      [2, 'invalid_field'],
      [3, 'invalid_field'],
      [4, 'invalid_field'],
      [5, 'invalid_field'],
    ]);
    expect((await alice.get('/v1/calls/call_media_ok')).body).toMatchObject({ billable_seconds: 0, mos: 1 });
  });

  it("refuses a record for another account's trunk from an account key, and a malformed one on its own", async () => {
    const bobIngest = (await provisionAccountDirect(app, ['ingest'], 'Bob gateway')).client;
    const result = await post(bobIngest, '/v1/ingest/calls', [call({ id: 'call_notbobs' })]);
    expect(result.rejected.map((r) => r.code)).toEqual(['unknown_trunk']);
    const mixed = await post(gateway, '/v1/ingest/calls', [
      call({ id: 'call_good1' }),
      call({ id: 'call_bad1', from: '"Mallory" <sip:m@x>' }),
      call({ id: 'call_bad2', ringing_at: at(-5) }),
    ]);
    expect(mixed.accepted).toBe(1);
    expect(mixed.rejected.map((r) => [r.index, r.code])).toEqual([
      [1, 'invalid_field'],
      [2, 'invalid_field'],
    ]);
  });

  describe('the rejection log', () => {
    const rejection = (overrides: Record<string, unknown> = {}) => ({
      id: `rej_${seq++}`,
      at: at(60_000 + seq),
      reason: 'auth_failed',
      sip_code: 403,
      sip_reason: 'Wrong password',
      source_address: '192.0.2.10',
      sip_username: trunk.sip_username,
      from: '+14155550100',
      to: '+442071838750',
      ...overrides,
    });

    it("lists a trunk's rejections newest first, each once however often the gateway re-sends it", async () => {
      const sent = [
        rejection(),
        rejection({ reason: 'address_not_allowed', sip_reason: 'Address not allowed' }),
        rejection({ reason: 'trunk_inactive', sip_code: 403, sip_reason: 'Trunk inactive', from: '"x" <y>' }),
      ];
      expect(await post(gateway, '/v1/ingest/rejections', sent)).toEqual({ accepted: 3, rejected: [] });
      expect((await post(gateway, '/v1/ingest/rejections', sent)).accepted).toBe(3);
      const first = await alice.get(`/v1/trunks/${trunk.id}/rejections?limit=2&from=${at(0)}`);
      expect(first.status).toBe(200);
      expect(first.body.rejections.map((r: { id: string }) => r.id)).toEqual([sent[2].id, sent[1].id]);
      expect(first.body.rejections[0]).toMatchObject({
        reason: 'trunk_inactive',
        sip_code: 403,
        source_address: '192.0.2.10',
        sip_username: trunk.sip_username.toLowerCase(),
        from: null,
      });
      expect(first.body.pagination).toMatchObject({ limit: 2, has_more: true });
      const rest = await alice.get(
        `/v1/trunks/${trunk.id}/rejections?limit=2&from=${at(0)}&cursor=${first.body.pagination.next_cursor}`,
      );
      expect(rest.body.rejections.map((r: { id: string }) => r.id)).toEqual([sent[0].id]);
      expect(rest.body.pagination).toEqual({ limit: 2, has_more: false, next_cursor: null });
    });

    it('keeps rejections of unknown users without showing them to any account', async () => {
      const result = await post(gateway, '/v1/ingest/rejections', [
        rejection({ reason: 'unknown_user', sip_code: 404, sip_username: 'no-such-trunk' }),
        rejection({ reason: 'unknown_user', sip_code: 404, sip_username: "x' OR 1=1 --" }),
      ]);
      expect(result).toEqual({ accepted: 2, rejected: [] });
    });

    it('refuses malformed rejections one by one, and hides other accounts', async () => {
      const result = await post(gateway, '/v1/ingest/rejections', [
        rejection({ id: 'nope' }),
        rejection({ reason: 'bad_vibes' }),
        rejection({ source_address: 'carrier.example' }),
        rejection({ trunk_id: 'conn_doesnotexist' }),
        rejection(),
      ]);
      expect(result.accepted).toBe(1);
      expect(result.rejected.map((r) => r.code)).toEqual([
        'invalid_field',
        'invalid_field',
        'invalid_field',
        'unknown_trunk',
      ]);
      expectError(await bob.get(`/v1/trunks/${trunk.id}/rejections`), 404, 'not_found');
      expectError(await alice.get(`/v1/trunks/${trunk.id}/rejections?cursor=abc`), 400, 'invalid_params');
      expectError(await alice.get(`/v1/trunks/${trunk.id}/rejections?limit=0`), 400, 'invalid_params');
      expect((await alice.get(`/v1/trunks/${trunk.id}/rejections`)).body.pagination.limit).toBe(20);
    });
  });

  it("lists the rejections no account owns to the platform's keys: unknown names, banned sources", async () => {
    const scanner = '198.51.100.66';
    const named = (await alice.post('/v1/trunks', customBody())).body;
    const refusal = (i: number, overrides: Record<string, unknown>) => ({
      id: `rej_scan${i}`,
      at: at(600_000 + i * 1000),
      sip_code: 403,
      sip_reason: 'Forbidden',
      source_address: scanner,
      ...overrides,
    });
    const sent = [
      refusal(0, { reason: 'unknown_user', sip_code: 404, sip_username: 'admin' }),
      refusal(1, { reason: 'unknown_user', sip_code: 404, sip_username: 'test-1' }),
      refusal(2, { reason: 'source_banned' }),
      refusal(3, { reason: 'source_banned', sip_username: 'no-such-name' }),
      // Named a real trunk: the trunk's account owns it, and the platform list does not show it.
      refusal(4, { reason: 'source_banned', sip_username: named.sip_username }),
      refusal(5, { reason: 'agent_busy', sip_code: 486, sip_reason: 'Busy Here', sip_username: named.sip_username }),
      refusal(6, { reason: 'agent_unavailable', sip_code: 500, sip_username: named.sip_username }),
    ];
    expect(await post(gateway, '/v1/ingest/rejections', sent)).toEqual({ accepted: 7, rejected: [] });
    const admin = app.admin;
    const listed = await admin.get(`/v1/gateway/rejections?source_address=${scanner}&from=${at(0)}`);
    expect(listed.status).toBe(200);
    expect(listed.body.rejections.map((r: { id: string }) => r.id)).toEqual([
      'rej_scan3',
      'rej_scan2',
      'rej_scan1',
      'rej_scan0',
    ]);
    expect(listed.body.rejections[0]).toEqual({
      id: 'rej_scan3',
      at: at(603_000),
      reason: 'source_banned',
      sip_code: 403,
      sip_reason: 'Forbidden',
      source_address: scanner,
      sip_username: 'no-such-name',
      from: null,
      to: null,
    });
    // Cursor pages, bound to their filters; reason filters.
    const page = await gateway.get(`/v1/gateway/rejections?source_address=${scanner}&from=${at(0)}&limit=3`);
    expect(page.body.pagination).toMatchObject({ limit: 3, has_more: true });
    const rest = await gateway.get(
      `/v1/gateway/rejections?source_address=${scanner}&from=${at(0)}&limit=3&cursor=${page.body.pagination.next_cursor}`,
    );
    expect(rest.body.rejections.map((r: { id: string }) => r.id)).toEqual(['rej_scan0']);
    expect(rest.body.pagination).toEqual({ limit: 3, has_more: false, next_cursor: null });
    expectError(
      await gateway.get(`/v1/gateway/rejections?limit=3&cursor=${page.body.pagination.next_cursor}`),
      400,
      'invalid_params',
    );
    const banned = await gateway.get(
      `/v1/gateway/rejections?reason=source_banned&source_address=${scanner}&from=${at(0)}`,
    );
    expect(banned.body.rejections.map((r: { id: string }) => r.id)).toEqual(['rej_scan3', 'rej_scan2']);
    expectError(await admin.get('/v1/gateway/rejections?reason=bad_vibes'), 400, 'invalid_params');
    expectError(await admin.get('/v1/gateway/rejections?source_address=carrier.example'), 400, 'invalid_params');
    // The trunk's owner sees what named the trunk, with the agent's answers under their own reasons.
    const owned = await alice.get(`/v1/trunks/${named.id}/rejections?from=${at(600_000)}`);
    expect(owned.body.rejections.map((r: { reason: string }) => r.reason)).toEqual([
      'agent_unavailable',
      'agent_busy',
      'source_banned',
    ]);
    // Account keys never see what belongs to no account.
    const ingest = (await provisionAccountDirect(app, ['ingest'], 'Carol')).client;
    for (const client of [alice, ingest]) expectError(await client.get('/v1/gateway/rejections'), 403, 'forbidden');
  });

  it('fires an alert rule on rejections, even in a window without calls', async () => {
    const quiet = (await alice.post('/v1/trunks', customBody())).body;
    const rule = await alice.post('/v1/alert-rules', {
      metric: 'rejections',
      comparison: 'gte',
      threshold: 2,
      window_minutes: 5,
      trunk_id: quiet.id,
    });
    expect(rule.status).toBe(201);
    const now = Date.now();
    const refused = [0, 1].map((i) => ({
      id: `rej_alert${i}`,
      at: new Date(now - 1000 * i).toISOString(),
      reason: 'auth_failed',
      sip_code: 403,
      source_address: '192.0.2.10',
      sip_username: quiet.sip_username,
    }));
    expect((await post(gateway, '/v1/ingest/rejections', refused)).accepted).toBe(2);
    await until(
      'the alert rule triggered',
      async () => (await alice.get(`/v1/alert-rules/${rule.body.id}`)).body.state === 'triggered',
      SETTLE_DEADLINE_MS,
    ).catch(() => undefined); // the assertion below says what it is
    expect((await alice.get(`/v1/alert-rules/${rule.body.id}`)).body.state).toBe('triggered');
  });

  it('counts failed calls by class and SIP code, the signalling times and rejections by reason and code in the overview', async () => {
    const overview = (await alice.get(`/v1/analytics/overview?start_date=${at(-60_000)}&trunk_id=${trunk.id}`)).body;
    expect(overview.failures.by_class).toMatchObject({ capacity: 1, agent_timeout: 1, agent_error: 1, auth: 0 });
    expect(overview.summary.failed_calls).toBe(3);
    // By the INVITE's final code: one each, ties in code order.
    expect(overview.failures.by_sip_code).toEqual([
      { sip_code: 408, count: 1 },
      { sip_code: 486, count: 1 },
      { sip_code: 500, count: 1 },
    ]);
    expect(overview.signalling).toEqual({
      calls_with_setup_time: overview.summary.connected_calls + 1,
      avg_post_dial_delay_ms: 120,
      avg_ring_time_ms: 1_225,
      avg_setup_time_ms: 1_345,
    });
    expect(overview.rejections.by_reason).toMatchObject({
      auth_failed: 2,
      address_not_allowed: 1,
      trunk_inactive: 1,
      unknown_user: 0,
    });
    expect(overview.rejections.total).toBe(4);
    expect(overview.rejections.by_sip_code).toEqual([{ sip_code: 403, count: 4 }]);
  });
});
