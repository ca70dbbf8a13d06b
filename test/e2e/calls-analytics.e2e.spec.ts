import { generateCalls, CallRecordInput } from '../../bench/lib/calls/call-generator';
import { expectedOverview, percentiles, total, Trunk } from '../support/expected-analytics';
import { ApiClient, expectError } from '../support/http-client';
import { provisionAccountDirect, startTestApp, TestApp } from '../support/test-app';
import { customBody, elevenlabsBody, trunkBody } from '../support/trunk-requests';

const ndjson = (records: object[]) => records.map((r) => JSON.stringify(r)).join('\n');
const DAY = 86_400_000;

async function ingest(
  client: ApiClient,
  records: object[],
): Promise<{ accepted: number; rejected: { index: number; code: string; id: string | null }[] }> {
  const response = await client.call('POST', '/v1/ingest/calls', {
    rawBody: ndjson(records),
    headers: { 'content-type': 'application/x-ndjson' },
  });
  if (response.status !== 200) throw new Error(`ingest: ${response.status} ${response.text}`);
  return response.body;
}

const PERCENTILES = ['p50_latency_ms', 'p95_latency_ms', 'p99_latency_ms'] as const;

/** Checks an object's percentiles against the exact ones (within max(1%, 1 ms)) and returns the rest. */
function checkPercentiles(actual: any, exact: any): object {
  const rest = { ...actual };
  for (const name of PERCENTILES) {
    expect(Math.abs(actual[name] - exact[name])).toBeLessThanOrEqual(Math.max(1, exact[name] * 0.01));
    delete rest[name];
  }
  return rest;
}
const withoutPercentiles = (value: any): object =>
  Object.fromEntries(Object.entries(value).filter(([key]) => !(PERCENTILES as readonly string[]).includes(key)));

/**
 * Integers exact; percentiles (of the range, from the latencies given, and of each bucket) within
 * max(1%, 1 ms) of the nearest rank; float averages within 0.01.
 */
function expectOverview(actual: any, expected: any, latencies: number[]): void {
  expect(checkPercentiles(actual.performance, percentiles(latencies))).toEqual(
    withoutPercentiles(expected.performance),
  );
  expect(actual.timeseries.length).toBe(expected.timeseries.length);
  actual.timeseries.forEach((point: any, i: number) =>
    expect(checkPercentiles(point, expected.timeseries[i])).toEqual(withoutPercentiles(expected.timeseries[i])),
  );
  expect(
    Math.abs(actual.quality.avg_packet_loss_percent - expected.quality.avg_packet_loss_percent),
  ).toBeLessThanOrEqual(0.01);
  expect({ ...actual.quality, avg_packet_loss_percent: 0 }).toEqual({
    ...expected.quality,
    avg_packet_loss_percent: 0,
  });
  expect(actual.summary).toEqual(expected.summary);
  expect(actual.period).toEqual(expected.period);
  expect(actual.by_trunk).toEqual(expected.by_trunk);
  expect(actual.by_provider).toEqual(expected.by_provider);
  expect(actual.failures.by_sip_code).toEqual(expected.failures.by_sip_code);
  const failed = actual.failures.by_sip_code.reduce((sum: number, entry: { count: number }) => sum + entry.count, 0);
  expect(failed).toBe(actual.summary.failed_calls);
}

/**
 * What a media gateway adds to some records: a MOS on every third (3 decimals, stored to 2), the
 * answer a third into every fourth answered call (billable seconds from it, the others' whole duration).
 */
function withMedia(r: CallRecordInput, i: number): CallRecordInput {
  const out = i % 3 === 0 ? { ...r, mos: 1 + (i % 35) / 10 + 0.004 } : { ...r };
  if (i % 4 === 1 && r.status !== 'failed' && r.end_time) {
    const start = Date.parse(r.start_time);
    out.answered_at = new Date(start + Math.round((Date.parse(r.end_time) - start) / 3)).toISOString();
  }
  return out;
}

/** The INVITE's final code on failed records, as a SIP gateway sends it; every sixth without one. */
const FAILURE_CODES = [486, 503, 404, 480, 603, undefined];
function withSipCode(r: CallRecordInput, i: number): CallRecordInput {
  const sip_code = FAILURE_CODES[i % FAILURE_CODES.length];
  return r.status === 'failed' && sip_code !== undefined ? { ...r, sip_code } : r;
}

describe('call records and analytics (embedded chDB)', () => {
  let app: TestApp;
  let client: ApiClient;
  let gateway: ApiClient;
  let other: ApiClient;
  let otherTrunkId: string;
  let otherAccountId: string;
  const trunks: Trunk[] = [];
  let records: CallRecordInput[];
  /** Records of this account a test stored after beforeAll (`records` stays the generated set). */
  const storedLater: CallRecordInput[] = [];
  const now = Date.now();

  beforeAll(async () => {
    app = await startTestApp();
    const account = await provisionAccountDirect(app, ['full']);
    client = account.client;
    const ingestKey = await app.admin.post('/v1/api-keys', {
      account_id: account.accountId,
      name: 'gw',
      scopes: ['ingest'],
    });
    gateway = app.admin.withKey(ingestKey.body.key);
    for (const body of [trunkBody(), elevenlabsBody(), customBody()]) {
      const created = await client.post('/v1/trunks', body);
      trunks.push({ id: created.body.id, name: created.body.name, provider: created.body.ai_provider });
    }
    const otherAccount = await provisionAccountDirect(app, ['full'], 'Other');
    other = otherAccount.client;
    otherAccountId = otherAccount.accountId;
    otherTrunkId = (await other.post('/v1/trunks', trunkBody())).body.id;
    records = [
      ...generateCalls({
        count: 900,
        trunkIds: trunks.map((t) => t.id),
        from: new Date(now - 3 * DAY),
        to: new Date(now - 60_000),
        seed: 42,
      }),
    ]
      .map(withMedia)
      .map(withSipCode);
    for (let i = 0; i < records.length; i += 300)
      expect((await ingest(gateway, records.slice(i, i + 300))).accepted).toBe(300);
    // Rename after ingestion: analytics must show the new name.
    const renamed = await client.patch(`/v1/trunks/${trunks[0].id}`, { name: 'Renamed main line' });
    trunks[0].name = renamed.body.name;
  });
  afterAll(() => app.stop());

  it('answers the overview exactly, daily, over a range that does not start on an hour', async () => {
    const start = new Date(now - 2.5 * DAY + 17 * 60_000);
    const end = new Date(now);
    const response = await client.get(
      `/v1/analytics/overview?start_date=${start.toISOString()}&end_date=${end.toISOString()}`,
    );
    expect(response.status).toBe(200);
    const expected = expectedOverview(records, trunks, start, end, false);
    const latencies = records
      .filter((r) => Date.parse(r.start_time) >= start.getTime())
      .map(total)
      .filter((t): t is number => t !== null);
    expectOverview(response.body, expected, latencies);
    expect(response.body.summary.total_calls).toBeGreaterThan(500);
  });

  it('answers the overview exactly, hourly, for one trunk, including empty buckets', async () => {
    const start = new Date(now - 1 * DAY - 33 * 60_000 - 7_000);
    const end = new Date(now - 2 * 3_600_000 + 123_456);
    const trunk = trunks[1];
    const response = await client.get(
      `/v1/analytics/overview?start_date=${start.toISOString()}&end_date=${end.toISOString()}&granularity=hourly&trunk_id=${trunk.id}`,
    );
    const expected = expectedOverview(records, trunks, start, end, true, trunk.id);
    const latencies = records
      .filter(
        (r) =>
          r.trunk_id === trunk.id &&
          Date.parse(r.start_time) >= start.getTime() &&
          Date.parse(r.start_time) <= end.getTime(),
      )
      .map(total)
      .filter((t): t is number => t !== null);
    expectOverview(response.body, expected, latencies);
    expect(response.body.timeseries.length).toBe(expected.timeseries.length);
  });

  it('answers the overview exactly, daily, for one trunk, over whole days and partial ones', async () => {
    const start = new Date(now - 2.7 * DAY - 5_123);
    const end = new Date(now - 0.2 * DAY);
    const trunk = trunks[0];
    const response = await client.get(
      `/v1/analytics/overview?start_date=${start.toISOString()}&end_date=${end.toISOString()}&trunk_id=${trunk.id}`,
    );
    const expected = expectedOverview(records, trunks, start, end, false, trunk.id);
    const latencies = records
      .filter(
        (r) =>
          r.trunk_id === trunk.id &&
          Date.parse(r.start_time) >= start.getTime() &&
          Date.parse(r.start_time) <= end.getTime(),
      )
      .map(total)
      .filter((t): t is number => t !== null);
    expectOverview(response.body, expected, latencies);
    expect(response.body.summary.total_calls).toBeGreaterThan(100);
  });

  it.each([
    ['hourly', new Date(now - 1 * DAY - 33 * 60_000 - 7_000), new Date(now - 2 * 3_600_000 + 123_456)],
    ['daily', new Date(now - 2.7 * DAY - 5_123), new Date(now - 0.2 * DAY)],
  ])(
    "gives the busiest trunks' series with trunk_series, each equal to that trunk's own answer (%s)",
    async (granularity, start, end) => {
      const range = `start_date=${start.toISOString()}&end_date=${end.toISOString()}&granularity=${granularity}`;
      const plain = await client.get(`/v1/analytics/overview?${range}`);
      const response = await client.get(`/v1/analytics/overview?${range}&trunk_series=2`);
      expect(response.status).toBe(200);
      // Additive: the same answer, the first two by_trunk entries with their series.
      const stripped = response.body.by_trunk.map(({ timeseries: _, ...entry }: any) => entry);
      expect({ ...response.body, by_trunk: stripped }).toEqual(plain.body);
      expect(plain.body.by_trunk.every((entry: any) => !('timeseries' in entry))).toBe(true);
      expect(response.body.by_trunk.length).toBe(3);
      expect('timeseries' in response.body.by_trunk[2]).toBe(false);
      for (const entry of response.body.by_trunk.slice(0, 2)) {
        const own = await client.get(`/v1/analytics/overview?${range}&trunk_id=${entry.trunk_id}`);
        expect(own.body.summary.total_calls).toBeGreaterThan(0);
        expect(entry.timeseries).toEqual(own.body.timeseries);
      }
    },
  );

  it("counts failures by SIP code of the account's own calls only", async () => {
    const start = new Date(now - 3 * DAY - 3_600_000);
    const end = new Date(now);
    const range = `start_date=${start.toISOString()}&end_date=${end.toISOString()}`;
    const before = (await client.get(`/v1/analytics/overview?${range}`)).body.failures.by_sip_code;
    expect(before.length).toBeGreaterThanOrEqual(6);
    // Another account's failed calls, with a code none of this account's calls has.
    const foreign = records
      .filter((r) => r.status === 'failed')
      .slice(0, 3)
      .map((r, i) => ({ ...r, id: `call_foreign_failure_${i}`, trunk_id: otherTrunkId, sip_code: 600 }));
    expect((await ingest(other, foreign)).accepted).toBe(3);
    expect((await client.get(`/v1/analytics/overview?${range}`)).body.failures.by_sip_code).toEqual(before);
    const theirs = await other.get(`/v1/analytics/overview?${range}`);
    expect(theirs.body.failures.by_sip_code).toEqual([{ sip_code: 600, count: 3 }]);
    const theirTrunk = await other.get(`/v1/analytics/overview?${range}&trunk_id=${otherTrunkId}&granularity=hourly`);
    expect(theirTrunk.body.failures.by_sip_code).toEqual([{ sip_code: 600, count: 3 }]);
    // Another account's trunk named in the filter counts nothing.
    const borrowed = await client.get(`/v1/analytics/overview?${range}&trunk_id=${otherTrunkId}`);
    expect(borrowed.body.failures.by_sip_code).toEqual([]);
  });

  it('answers a bad trunk_series with 400 naming it', async () => {
    for (const bad of ['0', '21', '2.5', 'five', '']) {
      const response = await client.get(`/v1/analytics/overview?trunk_series=${bad}`);
      expectError(response, 400, 'invalid_params');
      expect(response.body.error.param).toBe('trunk_series');
    }
  });

  it('counts nothing twice when every record is sent again, and reflects later versions', async () => {
    for (let i = 0; i < records.length; i += 300) await ingest(gateway, records.slice(i, i + 300));
    const changed = records
      .filter((_, i) => i % 10 === 0)
      .map((r) => ({ ...r, status: 'failed' as const, ai_latency_ms: (r.ai_latency_ms ?? 100) + 1000 }));
    await ingest(gateway, changed);
    const byId = new Map(records.map((r) => [r.id, r]));
    for (const c of changed) byId.set(c.id, c);
    const latest = [...byId.values()];
    const start = new Date(now - 3 * DAY - 3_600_000);
    const end = new Date(now);
    const response = await client.get(
      `/v1/analytics/overview?start_date=${start.toISOString()}&end_date=${end.toISOString()}&granularity=hourly`,
    );
    expectOverview(
      response.body,
      expectedOverview(latest, trunks, start, end, true),
      latest.map(total).filter((t): t is number => t !== null),
    );
    expect(response.body.summary.total_calls).toBe(records.length);
    const detail = await client.get(`/v1/calls/${changed[0].id}`);
    expect(detail.body).toMatchObject({ status: 'failed', metrics: { ai_latency_ms: changed[0].ai_latency_ms } });
    const list = await client.get('/v1/calls?limit=1');
    expect(list.body.pagination.total).toBe(records.length);
  });

  it('rejects bad records one by one with reasons and stores the rest', async () => {
    const base = records[0];
    const good = { ...base, id: 'call_fresh_good_1' };
    const result = await ingest(gateway, [
      { ...base, id: 'call_bad_type', ai_latency_ms: 'fast' },
      { ...base, id: 'call_bad_trunk', trunk_id: 'conn_doesnotexist' },
      { ...base, id: 'call_other_account', trunk_id: otherTrunkId },
      // Callers that are not E.164 are kept as given (docs/sip-gateway.md); a display name is not a caller.
      { ...base, id: 'call_bad_caller', from: '"Bob" <sip:0044123@carrier.example>' },
      { ...base, id: 'call_bad_times', end_time: new Date(Date.parse(base.start_time) - 1000).toISOString() },
      { ...base, id: 'call_huge_trace', sip_trace: 'INVITE '.repeat(20_000) },
      good,
    ]);
    expect(result.accepted).toBe(1);
    storedLater.push(good);
    expect(result.rejected.map((r) => [r.index, r.id, r.code])).toEqual([
      [0, 'call_bad_type', 'invalid_field'],
      [1, 'call_bad_trunk', 'unknown_trunk'],
      [2, 'call_other_account', 'unknown_trunk'],
      [3, 'call_bad_caller', 'invalid_field'],
      [4, 'call_bad_times', 'invalid_field'],
      [5, 'call_huge_trace', 'too_large'],
    ]);
    expect((await client.get('/v1/calls/call_fresh_good_1')).status).toBe(200);
    const invalidJson = await gateway.call('POST', '/v1/ingest/calls', {
      rawBody: `{"id":\n${JSON.stringify(good)}`,
      headers: { 'content-type': 'application/x-ndjson' },
    });
    expect(invalidJson.body.rejected[0]).toMatchObject({ index: 0, code: 'invalid_json' });
  });

  it('lists calls with filters, exact totals and cursor pages that cover everything once', async () => {
    const trunk = trunks[2];
    const mine = records.filter((r) => r.trunk_id === trunk.id);
    const first = await client.get(`/v1/calls?trunk_id=${trunk.id}&limit=50`);
    expect(first.body.pagination).toMatchObject({
      limit: 50,
      offset: 0,
      total: mine.length,
      has_more: mine.length > 50,
    });
    const seen: string[] = [];
    let page = first;
    for (;;) {
      seen.push(...page.body.calls.map((c: { id: string }) => c.id));
      if (!page.body.pagination.next_cursor) break;
      page = await client.get(`/v1/calls?trunk_id=${trunk.id}&limit=50&cursor=${page.body.pagination.next_cursor}`);
    }
    expect(new Set(seen).size).toBe(seen.length);
    const byOffset = await client.get(`/v1/calls?trunk_id=${trunk.id}&limit=50&offset=50`);
    expect(byOffset.body.calls.map((c: { id: string }) => c.id)).toEqual(seen.slice(50, 100));
    expect(seen.sort()).toEqual(mine.map((r) => r.id).sort());
    const times = first.body.calls.map((c: { start_time: string }) => Date.parse(c.start_time));
    expect(times).toEqual([...times].sort((a, b) => b - a));
    const failed = await client.get('/v1/calls?status=failed&limit=100');
    expect(failed.body.calls.every((c: { status: string }) => c.status === 'failed')).toBe(true);
    const one = records[5];
    const byNumber = await client.get(
      `/v1/calls?from=${encodeURIComponent(one.from)}&to=${encodeURIComponent(one.to)}`,
    );
    expect(byNumber.body.calls.map((c: { id: string }) => c.id)).toContain(one.id);
    expectError(await client.get(`/v1/calls?cursor=${first.body.pagination.next_cursor}`), 400, 'invalid_params');
    expectError(await client.get('/v1/calls?limit=500'), 400, 'invalid_params');
    expectError(await client.get('/v1/calls?start_date=yesterday'), 400, 'invalid_params');
  });

  it('serves one call in detail form, and 404 for another account', async () => {
    const record = records.find((r) => r.status === 'connected' && r.turns && r.sip_trace)!;
    const detail = await client.get(`/v1/calls/${record.id}`);
    expect(detail.status).toBe(200);
    expect(detail.body).toMatchObject({
      id: record.id,
      trunk_id: record.trunk_id,
      from: record.from,
      to: record.to,
      status: record.status,
      start_time: record.start_time,
      turns: record.turns,
      sip_trace: record.sip_trace,
    });
    expect(detail.body.metrics).toMatchObject({
      carrier_lag_ms: record.carrier_lag_ms,
      jitter_ms: record.jitter_ms ?? null,
      codec_used: record.codec_used ?? null,
    });
    expectError(await other.get(`/v1/calls/${record.id}`), 404, 'not_found');
    expectError(await client.get('/v1/calls/call_nope'), 404, 'not_found');
  });

  it('fills the trunk list stats from the calls of today', async () => {
    const dayStart = Math.floor(now / DAY) * DAY;
    // The record the rejection test stored has records[0]'s start: today or not by the time of day.
    const today = [...records, ...storedLater].filter((r) => Date.parse(r.start_time) >= dayStart);
    const list = await client.get('/v1/trunks?limit=100');
    for (const t of trunks) {
      const mine = today.filter((r) => r.trunk_id === t.id);
      const item = list.body.trunks.find((x: { id: string }) => x.id === t.id);
      expect(item.stats.calls_today).toBe(mine.length);
    }
  });

  it('keeps ingestion and reads to their scopes and answers bad ranges with 400', async () => {
    // full is everything of its account, ingestion included (decisions.md); read is GET only.
    expect(
      (await ingest(other, [{ ...records[0], id: 'call_sent_with_full_key', trunk_id: otherTrunkId }])).accepted,
    ).toBe(1);
    const readKey = await app.admin.post('/v1/api-keys', { account_id: otherAccountId, name: 'ro', scopes: ['read'] });
    expectError(await app.admin.withKey(readKey.body.key).post('/v1/ingest/calls', []), 403, 'forbidden');
    expectError(await gateway.get('/v1/calls'), 403, 'forbidden');
    expectError(
      await client.get('/v1/analytics/overview?start_date=2026-01-10&end_date=2026-01-01'),
      400,
      'invalid_params',
    );
    expectError(
      await client.get('/v1/analytics/overview?start_date=2020-01-01&end_date=2026-01-01'),
      400,
      'invalid_params',
    );
    expectError(await client.get('/v1/analytics/overview?granularity=weekly'), 400, 'invalid_params');
  });
});
