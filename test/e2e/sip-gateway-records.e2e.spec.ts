import { ApiClient, expectError } from '../support/http-client';
import { provisionAccountDirect, startTestApp, TestApp } from '../support/test-app';
import { customBody } from '../support/trunk-requests';

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
    for (let i = 0; i < 100 && (await alice.get(`/v1/alert-rules/${rule.body.id}`)).body.state !== 'triggered'; i++)
      await new Promise((resolve) => setTimeout(resolve, 100));
    expect((await alice.get(`/v1/alert-rules/${rule.body.id}`)).body.state).toBe('triggered');
  });

  it('counts failed calls by class, the signalling times and rejections by reason in the overview', async () => {
    const overview = (await alice.get(`/v1/analytics/overview?start_date=${at(-60_000)}&trunk_id=${trunk.id}`)).body;
    expect(overview.failures.by_class).toMatchObject({ capacity: 1, agent_timeout: 1, agent_error: 1, auth: 0 });
    expect(overview.summary.failed_calls).toBe(3);
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
  });
});
