import { Rng } from '../../bench/lib/calls/call-generator';
import { expectedConcurrency, Span } from '../support/concurrency-oracle';
import { ApiClient, expectError } from '../support/http-client';
import { provisionAccountDirect, startTestApp, TestApp } from '../support/test-app';
import { trunkBody } from '../support/trunk-requests';

const HOUR = 3_600_000;
const DAY = 86_400_000;

interface Call extends Span {
  id: string;
  trunk: string;
  /** end_time sent, or only duration_seconds (the end is then start + whole seconds). */
  withEndTime: boolean;
}

function record(call: Call): object {
  return {
    id: call.id,
    trunk_id: call.trunk,
    from: '+14155550100',
    to: '+14155550199',
    status: 'disconnected',
    start_time: new Date(call.start).toISOString(),
    ...(call.withEndTime
      ? { end_time: new Date(call.end).toISOString() }
      : { duration_seconds: (call.end - call.start) / 1000 }),
  };
}

describe('GET /v1/analytics/concurrency (exact against a brute-force count)', () => {
  let app: TestApp;
  let client: ApiClient;
  let other: ApiClient;
  const trunks: string[] = [];
  let calls: Call[] = [];
  // A whole hour boundary, so the generated calls sit well inside the past.
  const base = Math.floor(Date.now() / HOUR) * HOUR - 3 * DAY;

  const ingest = async (records: object[]) => {
    const response = await client.call('POST', '/v1/ingest/calls', {
      rawBody: records.map((r) => JSON.stringify(r)).join('\n'),
      headers: { 'content-type': 'application/x-ndjson' },
    });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ accepted: records.length, rejected: [] });
  };
  const ask = (query: string) => client.get(`/v1/analytics/concurrency?${query}`);
  const spansOf = (trunk?: string) => calls.filter((c) => !trunk || c.trunk === trunk);

  beforeAll(async () => {
    app = await startTestApp();
    client = (await provisionAccountDirect(app, ['full'])).client;
    other = (await provisionAccountDirect(app, ['full'], 'Other')).client;
    for (let i = 0; i < 2; i++) trunks.push((await client.post('/v1/trunks', trunkBody())).body.id);
    const rng = new Rng();
    rng.seed(7, 30, 0);
    const pick = (n: number) => rng.u32() % n;
    calls = Array.from({ length: 240 }, (_, i) => {
      const start = base + pick(40 * HOUR) + (i % 5 === 0 ? 0 : pick(1000));
      // Mostly minutes; some hours long (across buckets); every 10th with whole seconds only.
      const length = i % 17 === 0 ? pick(30 * HOUR) : (pick(15 * 60) + 1) * 1000 + pick(1000);
      const withEndTime = i % 10 !== 0;
      const end = start + (withEndTime ? length : Math.floor(length / 1000) * 1000);
      return { id: `call_conc${i}`, trunk: trunks[i % 2], start, end, withEndTime };
    });
    // Calls ending exactly as others start (no overlap at that instant), and one of zero length.
    calls.push({ id: 'call_concA', trunk: trunks[0], start: base + 5 * HOUR, end: base + 6 * HOUR, withEndTime: true });
    calls.push({ id: 'call_concB', trunk: trunks[0], start: base + 6 * HOUR, end: base + 7 * HOUR, withEndTime: true });
    calls.push({ id: 'call_concZ', trunk: trunks[1], start: base + 9 * HOUR, end: base + 9 * HOUR, withEndTime: true });
    await ingest(calls.map(record));
  });
  afterAll(() => app.stop());

  it('answers hourly for the whole account, a range starting and ending inside hours', async () => {
    const start = new Date(base + 3 * HOUR + 17 * 60_000 + 123);
    const end = new Date(base + 30 * HOUR + 41 * 60_000);
    const response = await ask(`start_date=${start.toISOString()}&end_date=${end.toISOString()}&granularity=hourly`);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      period: { start_date: start.toISOString(), end_date: end.toISOString() },
      granularity: 'hourly',
      trunk_id: null,
      ...expectedConcurrency(spansOf(), start, end, true),
    });
    expect(response.body.peak_concurrent_calls).toBeGreaterThan(3);
  });

  it('answers daily for one trunk, counting a call in every bucket it spans', async () => {
    const start = new Date(base - DAY + 5_000);
    const end = new Date(base + 2 * DAY);
    const response = await ask(`start_date=${start.toISOString()}&end_date=${end.toISOString()}&trunk_id=${trunks[1]}`);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      period: { start_date: start.toISOString(), end_date: end.toISOString() },
      granularity: 'daily',
      trunk_id: trunks[1],
      ...expectedConcurrency(spansOf(trunks[1]), start, end, false),
    });
    const spanning = response.body.timeseries.filter((p: { peak_concurrent_calls: number }) => p.peak_concurrent_calls);
    expect(spanning.length).toBeGreaterThan(1);
  });

  it('counts the latest version of a re-sent call only', async () => {
    // A tenth of the calls sent again, ending later: the first versions no longer count.
    const resent = calls.filter((_, i) => i % 10 === 3).map((c) => ({ ...c, end: c.end + 2 * HOUR }));
    await ingest(resent.map(record));
    calls = calls.map((c) => resent.find((r) => r.id === c.id) ?? c);
    const start = new Date(base);
    const end = new Date(base + 2 * DAY - 1);
    const response = await ask(`start_date=${start.toISOString()}&end_date=${end.toISOString()}&granularity=hourly`);
    expect(response.body).toMatchObject(expectedConcurrency(spansOf(), start, end, true));
  });

  it("shows nothing of another account's calls, and answers bad ranges with 400", async () => {
    const range = `start_date=${new Date(base).toISOString()}&end_date=${new Date(base + DAY).toISOString()}`;
    const response = await other.get(`/v1/analytics/concurrency?${range}&granularity=hourly`);
    expect(response.status).toBe(200);
    expect(response.body.peak_concurrent_calls).toBe(0);
    expect(response.body.peak_at).toBeNull();
    expect(response.body.timeseries.length).toBe(25);
    const bad = await ask(`${range}&granularity=weekly`);
    expectError(bad, 400, 'invalid_params');
    expect(bad.body.error.param).toBe('granularity');
    expectError(await ask('start_date=2026-01-02&end_date=2026-01-01'), 400, 'invalid_params');
    expectError(await ask('start_date=2024-01-01&end_date=2026-01-01'), 400, 'invalid_params');
  });
});
