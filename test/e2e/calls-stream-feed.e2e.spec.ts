import { SETTLE_DEADLINE_MS } from '../support/deadlines';
import { ApiClient } from '../support/http-client';
import { SseConnection, SseEvent } from '../support/sse-client';
import { provisionAccountDirect, startTestApp } from '../support/test-app';
import { trunkBody } from '../support/trunk-requests';
import { CallStreams } from '../../src/analytics/live/call-streams';
import { CALL_RECORD_WRITER } from '../../src/calls/ingestion/call-ingestion.service';
import type { CallRecordWriter } from '../../src/calls/ingestion/call-record.writer';
import { validateCallRecord } from '../../src/calls/ingestion/call-record.validation';
import { CLICKHOUSE, type ClickHouseExecutor } from '../../src/infrastructure/clickhouse/clickhouse.port';

interface Tenant {
  accountId: string;
  key: string;
  client: ApiClient;
  trunkId: string;
}

const callKeys = (events: SseEvent[]) =>
  events.filter((e) => e.event === 'call').map((e) => `${e.data.id}@${e.data.version}`);

/**
 * The real app on embedded chDB, its executor watched (every query still runs on chDB): a round of
 * a stream's reads is one query of the account's call feed (`after_version`) and one of its
 * rejections (`after_ms`).
 */
async function watchedApp(env: Record<string, string>) {
  const app = await startTestApp(env);
  const clickhouse = app.running.app.get<symbol, ClickHouseExecutor>(CLICKHOUSE, { strict: false });
  const queries = jest.spyOn(clickhouse, 'query');
  const reads = (accountId: string) => {
    const of = (param: string) =>
      queries.mock.calls.filter(([, params]) => params?.account === accountId && params[param] !== undefined).length;
    return { calls: of('after_version'), rejections: of('after_ms') };
  };
  const tenant = async (name: string): Promise<Tenant> => {
    const provisioned = await provisionAccountDirect(app, ['full'], name);
    const trunkId = (await provisioned.client.post('/v1/trunks', trunkBody())).body.id as string;
    return { ...provisioned, trunkId };
  };
  const streams: SseConnection[] = [];
  const open = async (tenant: Tenant) => {
    const stream = await SseConnection.open(tenant.client.origin, app.running.tls?.cert, tenant.key);
    if (!(stream instanceof SseConnection)) throw new Error(`stream refused: ${JSON.stringify(stream)}`);
    streams.push(stream);
    await stream.until((events) => events.some((e) => e.event === 'ready'), 'ready event');
    return stream;
  };
  const stop = async () => {
    for (const stream of streams) stream.close();
    queries.mockRestore();
    await app.stop();
  };
  return { app, reads, tenant, open, stop };
}

const record = (tenant: Tenant, id: string) => ({
  id,
  trunk_id: tenant.trunkId,
  from: '+14155550100',
  to: '+14155550199',
  status: 'connected',
  start_time: new Date(Date.now() - 60_000).toISOString(),
  duration_seconds: 30,
});

describe('GET /v1/calls/stream: one reader per account, woken by notices', () => {
  let watched: Awaited<ReturnType<typeof watchedApp>>;
  let carol: Tenant;
  let dave: Tenant;

  beforeAll(async () => {
    // Read the store every six hours only: every round here is one notice's.
    watched = await watchedApp({ CALL_STREAM_POLL_MS: String(6 * 3_600_000) });
    carol = await watched.tenant('Carol');
    dave = await watched.tenant('Dave');
  });
  afterAll(() => watched?.stop());

  const ingest = async (tenant: Tenant, id: string) => {
    const response = await tenant.client.post('/v1/ingest/calls', [record(tenant, id)]);
    expect(response.body).toEqual({ accepted: 1, rejected: [] });
  };

  it('hands two streams of one account the same records, reading the store once per notice for both', async () => {
    const [first, second] = [await watched.open(carol), await watched.open(carol)];
    const before = watched.reads(carol.accountId);
    const ids = ['call_sharedA', 'call_sharedB', 'call_sharedC'];
    for (const id of ids) {
      await ingest(carol, id); // one record, one stored batch, one notice
      for (const stream of [first, second]) await stream.until((events) => events.some((e) => e.data.id === id), id);
    }
    expect(callKeys(first.events)).toEqual(callKeys(second.events));
    expect(callKeys(first.events).map((k) => k.replace(/@\d+$/, ''))).toEqual(ids);
    const after = watched.reads(carol.accountId);
    // One round per notice: a stream each would read twice.
    expect({ calls: after.calls - before.calls, rejections: after.rejections - before.rejections }).toEqual({
      calls: ids.length,
      rejections: ids.length,
    });
  });

  it("keeps accounts apart: a notice for one account reads only that account's records, for its streams only", async () => {
    const carols = await watched.open(carol);
    const daves = await watched.open(dave);
    const before = [watched.reads(carol.accountId), watched.reads(dave.accountId)];
    await ingest(dave, 'call_daveOnly');
    await daves.until((events) => events.some((e) => e.data.id === 'call_daveOnly'), "dave's call");
    const after = [watched.reads(carol.accountId), watched.reads(dave.accountId)];
    expect(after[0]).toEqual(before[0]);
    expect(after[1]).toEqual({ calls: before[1].calls + 1, rejections: before[1].rejections + 1 });
    await ingest(carol, 'call_carolOnly');
    await carols.until((events) => events.some((e) => e.data.id === 'call_carolOnly'), "carol's call");
    expect(callKeys(daves.events).map((k) => k.replace(/@\d+$/, ''))).toEqual(['call_daveOnly']);
    expect(callKeys(carols.events).map((k) => k.replace(/@\d+$/, ''))).toEqual(['call_carolOnly']);
  });

  it('stops the reader of an account when its last stream closes', async () => {
    const streams = watched.app.running.app.get(CallStreams, { strict: false });
    const eve = await watched.tenant('Eve');
    const [first, second] = [await watched.open(eve), await watched.open(eve)];
    const running = streams.runningFeeds;
    first.close();
    second.close();
    const deadline = Date.now() + SETTLE_DEADLINE_MS;
    while (streams.runningFeeds !== running - 1) {
      if (Date.now() > deadline) throw new Error(`still ${streams.runningFeeds} readers after eve's streams closed`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  });
});

describe('GET /v1/calls/stream: one poll per account', () => {
  const POLL_MS = 400;
  let watched: Awaited<ReturnType<typeof watchedApp>>;
  let carol: Tenant;

  beforeAll(async () => {
    watched = await watchedApp({ CALL_STREAM_POLL_MS: String(POLL_MS) });
    carol = await watched.tenant('Carol');
  });
  afterAll(() => watched?.stop());

  it('polls the store once per CALL_STREAM_POLL_MS for all the streams of an account, each getting the records', async () => {
    const streams = [await watched.open(carol), await watched.open(carol), await watched.open(carol)];
    const before = watched.reads(carol.accountId);
    const started = performance.now();
    // Straight to the writer, past the notices: only a poll finds them.
    const writer = watched.app.running.app.get<CallRecordWriter>(CALL_RECORD_WRITER, { strict: false });
    const ids = ['call_polledA', 'call_polledB'];
    for (const id of ids) {
      const verdict = validateCallRecord(record(carol, id));
      if (!verdict.ok) throw new Error(verdict.message);
      await writer.submit([{ ...verdict.record, account_id: carol.accountId, provider: 'openai' }]);
      for (const stream of streams) await stream.until((events) => events.some((e) => e.data.id === id), id);
    }
    // A few more intervals with all three open, so that a read per stream would show.
    await new Promise((resolve) => setTimeout(resolve, 5 * POLL_MS));
    const after = watched.reads(carol.accountId);
    const elapsed = performance.now() - started;
    for (const stream of streams) expect(callKeys(stream.events).map((k) => k.replace(/@\d+$/, ''))).toEqual(ids);
    // Rounds start at least POLL_MS apart (no notice, no backlog): a busy machine makes fewer. A
    // round is one query of each kind; one may straddle either end of the window.
    const bound = Math.floor(elapsed / POLL_MS) + 2;
    expect(after.calls - before.calls).toBeGreaterThanOrEqual(1);
    expect(after.calls - before.calls).toBeLessThanOrEqual(bound);
    expect(after.rejections - before.rejections).toBeLessThanOrEqual(bound);
  });
});
