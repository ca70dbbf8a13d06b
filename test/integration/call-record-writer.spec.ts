import { mkdtempSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClickHouse } from '../../src/infrastructure/clickhouse/clickhouse.factory';
import {
  type ClickHouseExecutor,
  ClickHouseUnavailableError,
} from '../../src/infrastructure/clickhouse/clickhouse.port';
import { type EnrichedCallRecord, isoFromChDateTime, rowOf } from '../../src/calls/ingestion/call-record.row';
import { validateCallRecord } from '../../src/calls/ingestion/call-record.validation';
import { CallRecordWriter } from '../../src/calls/ingestion/call-record.writer';
import { readCallLine } from '../../src/calls/ingestion/call-line.reader';
import { DomainError } from '../../src/shared/domain-error';
import { SETTLE_DEADLINE_MS } from '../support/deadlines';
import { until } from '../support/free-port';

/**
 * The writer against the embedded engine with the application's migrations: rows are rendered as
 * JSONEachRow lines when submitted and handed over as text, so what is stored must be what rowOf
 * builds, and a re-sent call must still cancel its stored version.
 */
const dataDir = mkdtempSync(join(tmpdir(), 'trunkline-writer-'));
let clickhouse: ClickHouseExecutor;

beforeAll(async () => {
  clickhouse = await createClickHouse({ url: null, dataDir });
});

afterAll(async () => {
  await clickhouse?.close();
  await rm(dataDir, { recursive: true, force: true });
});

let account = 0;
const nextAccount = (): string => `acct_writer_${++account}`;

function record(accountId: string, id: string, fields: Record<string, unknown> = {}): EnrichedCallRecord {
  const verdict = validateCallRecord({
    id,
    trunk_id: 'conn_writer',
    from: 'sip:+14155550100@carrier.example;user=phone',
    to: '+14155550199',
    status: 'connected',
    start_time: '2026-11-21T10:00:00.250+01:00',
    end_time: '2026-11-21T09:01:00.000Z',
    metrics: { carrier_lag_ms: 10, ai_latency_ms: 300, gateway_processing_ms: 5, codec_used: 'PCMU' },
    turns: [{ turn_number: 1, speaker: 'caller', duration_ms: 900 }],
    sip_trace: 'INVITE sip:+14155550199@x SIP/2.0\r\nFrom: "Caller \\ ü 😀" <sip:a@b>\r\n',
    sip_code: 200,
    ...fields,
  });
  if (!verdict.ok) throw new Error(`${verdict.code}: ${verdict.message}`);
  return { ...verdict.record, account_id: accountId, provider: 'openai' };
}

/** A request's record with two turns (one with every optional field) and a metrics object. */
const lineFields = () => ({
  id: 'call_token',
  trunk_id: 'conn_writer',
  from: '+14155550100',
  to: '+14155550199',
  status: 'connected',
  start_time: '2026-11-21T09:00:00.000Z',
  end_time: '2026-11-21T09:01:00.000Z',
  metrics: { carrier_lag_ms: 10 },
  turns: [
    { turn_number: 1, speaker: 'caller', duration_ms: 900 },
    {
      turn_number: 2,
      speaker: 'agent',
      duration_ms: 1200,
      processing_time_ms: 300,
      interrupted: true,
      start_offset_ms: 950,
    },
  ],
});

const stored = (accountId: string) =>
  clickhouse.query<Record<string, unknown>>(
    'SELECT * EXCEPT (version, ingested_at) FROM call_records FINAL WHERE account_id = {a:String} ORDER BY call_id',
    { a: accountId },
  );

describe('CallRecordWriter on embedded chDB', () => {
  it('stores each record as the row rowOf builds for it', async () => {
    const accountId = nextAccount();
    const records = [record(accountId, 'call_a'), record(accountId, 'call_b', { sip_trace: null, turns: null })];
    await new CallRecordWriter(clickhouse).submit(records);
    const expected = records.map((r) => {
      const { version, ingested_at, ...row } = rowOf(r, 1, new Date());
      void version;
      void ingested_at;
      const iso = (text: string | null) => (text === null ? null : isoFromChDateTime(text));
      return {
        ...row,
        start_time: iso(row.start_time),
        end_time: iso(row.end_time),
        invite_at: iso(row.invite_at),
        ringing_at: iso(row.ringing_at),
        answered_at: iso(row.answered_at),
      };
    });
    expect(await stored(accountId)).toEqual(expect.arrayContaining(expected.map((e) => expect.objectContaining(e))));
  });

  it('stores a SIP trace kept as its request token, and turns sent as an array, as the text rowOf gives', async () => {
    const accountId = nextAccount();
    const trace = 'INVITE sip:x SIP/2.0\r\nFrom: "A \\ ü 😀" <sip:a@b>\r\nX: a/b\t\b\f\r\n';
    const line = Buffer.from(JSON.stringify({ ...lineFields(), sip_trace: trace }).replace('a/b', 'a\\/b'));
    const read = readCallLine(line);
    expect(read.sipTrace).toBeDefined();
    const verdict = validateCallRecord(read.value);
    if (!verdict.ok) throw new Error(verdict.message);
    const viaToken: EnrichedCallRecord = {
      ...verdict.record,
      sip_trace: read.sipTrace!,
      account_id: accountId,
      provider: 'openai',
    };
    await new CallRecordWriter(clickhouse).submit([viaToken]);
    const rows = await clickhouse.query<{ sip_trace: string; turns: string }>(
      'SELECT sip_trace, turns FROM call_records FINAL WHERE account_id = {a:String}',
      { a: accountId },
    );
    const expected = rowOf(viaToken, 1, new Date());
    expect(expected.sip_trace).toBe(trace);
    expect(rows).toEqual([{ sip_trace: expected.sip_trace, turns: expected.turns }]);
  });

  it('cancels the stored version of a re-sent call, and the last of one batch wins', async () => {
    const accountId = nextAccount();
    const writer = new CallRecordWriter(clickhouse);
    await writer.submit([record(accountId, 'call_c')]);
    // Two submissions within one linger window go into one INSERT: only the later one is kept.
    await Promise.all([
      writer.submit([record(accountId, 'call_c', { status: 'failed' })]),
      writer.submit([record(accountId, 'call_c', { status: 'disconnected', direction: 'outbound' })]),
    ]);
    expect(await stored(accountId)).toEqual([
      expect.objectContaining({ call_id: 'call_c', status: 'disconnected', direction: 'outbound', sign: 1 }),
    ]);
    const [hourly] = await clickhouse.query<{ calls: number; connected: number }>(
      'SELECT sum(calls) AS calls, sum(connected) AS connected FROM call_stats_hourly WHERE account_id = {a:String}',
      { a: accountId },
    );
    expect(hourly).toEqual({ calls: 1, connected: 0 });
  });

  it("stores a re-sent call above a stored version from a clock that runs ahead of this writer's", async () => {
    const accountId = nextAccount();
    const ahead = Date.now() * 1000 + 3_600_000_000;
    const line = `${JSON.stringify(rowOf(record(accountId, 'call_h'), ahead, new Date()))}\n`;
    await clickhouse.insertJsonEachRow('call_records', Buffer.from(line));
    await new CallRecordWriter(clickhouse).submit([record(accountId, 'call_h', { status: 'failed', sip_code: 486 })]);
    const rows = await clickhouse.query<{ version: string; status: string; sip_trace: string }>(
      'SELECT toString(version) AS version, status, sip_trace FROM call_records FINAL WHERE account_id = {a:String}',
      { a: accountId },
    );
    expect(rows).toEqual([
      { version: String(ahead + 1), status: 'failed', sip_trace: record(accountId, 'call_h').sip_trace },
    ]);
  });

  it('refuses a submission with 503 while the rows waiting already fill the byte bound, and takes it once written', async () => {
    const accountId = nextAccount();
    // Rows wait a whole linger window before their INSERT: long enough to submit behind them.
    const writer = new CallRecordWriter(clickhouse, { lingerMs: 300, maxQueuedBytes: 1000 });
    const first = writer.submit([record(accountId, 'call_f')]);
    expect(writer.depthBytes).toBeGreaterThan(0);
    const refused = await writer.submit([record(accountId, 'call_g')]).catch((error: unknown) => error);
    expect(refused).toEqual(expect.objectContaining({ code: 'service_unavailable' }));
    expect(refused).toBeInstanceOf(DomainError);
    await first;
    expect(writer.depthBytes).toBe(0);
    await writer.submit([record(accountId, 'call_g')]);
    expect((await stored(accountId)).map((row) => row.call_id)).toEqual(['call_f', 'call_g']);
  });

  it('refuses every submission of a batch whose INSERT failed', async () => {
    const closed = await createClickHouse({ url: null, dataDir: join(dataDir, 'closed') });
    await closed.close();
    const writer = new CallRecordWriter(closed);
    const accountId = nextAccount();
    const results = await Promise.allSettled([
      writer.submit([record(accountId, 'call_d')]),
      writer.submit([record(accountId, 'call_e')]),
    ]);
    expect(results.map((r) => r.status === 'rejected' && r.reason instanceof ClickHouseUnavailableError)).toEqual([
      true,
      true,
    ]);
  });
  // Last: it moves the published horizon far ahead for the rest of this file's writers.
  it('stores every version above the published feed horizon and publishes its own', async () => {
    const accountId = nextAccount();
    const horizon = async () =>
      Number((await clickhouse.query<{ v: string }>('SELECT toString(max(version)) AS v FROM call_feed_horizon'))[0].v);
    // Another instance, its clock an hour ahead, published its INSERT.
    const ahead = Date.now() * 1000 + 3_600_000_000;
    await clickhouse.insert('call_feed_horizon', [{ id: 0, version: ahead }]);
    await new CallRecordWriter(clickhouse).submit([record(accountId, 'call_f1'), record(accountId, 'call_f2')]);
    const versions = await clickhouse.query<{ version: string }>(
      'SELECT toString(version) AS version FROM call_records WHERE account_id = {a:String} ORDER BY call_id',
      { a: accountId },
    );
    expect(versions.map((row) => Number(row.version) > ahead)).toEqual([true, true]);
    expect(await horizon()).toBe(Math.max(...versions.map((row) => Number(row.version))));
  });
});

/**
 * The engine may refuse an INSERT half-way: call_records' rows stored, some views fed and others
 * not (the embedded engine's memory cap did so in the analytics bench). A view of the test's own
 * on call_records stands for the view that missed it: it fails, with the memory cap's code (241,
 * an unavailable engine), while writer_refusal_flag holds a row.
 */
describe('CallRecordWriter when the engine refuses an INSERT half-way', () => {
  const refuse = (on: boolean) =>
    clickhouse.command(on ? 'INSERT INTO writer_refusal_flag VALUES (1)' : 'TRUNCATE TABLE writer_refusal_flag');

  beforeAll(async () => {
    await clickhouse.command('CREATE TABLE writer_refusal_flag (x UInt8) ENGINE = MergeTree ORDER BY x');
    await clickhouse.command(
      `CREATE TABLE writer_refusal_counts (account_id String, calls Int64) ENGINE = SummingMergeTree
       ORDER BY account_id SETTINGS non_replicated_deduplication_window = 1000`,
    );
    await clickhouse.command(
      `CREATE MATERIALIZED VIEW writer_refusal_mv TO writer_refusal_counts AS
       SELECT account_id,
              toInt64(sign) + throwIf((SELECT count() FROM writer_refusal_flag) > 0, 'refused', toInt32(241)) * 0 AS calls
       FROM call_records SETTINGS allow_custom_error_code_in_throwif = 1`,
    );
  });

  afterAll(async () => {
    await clickhouse.command('DROP VIEW IF EXISTS writer_refusal_mv');
    await clickhouse.command('DROP TABLE IF EXISTS writer_refusal_counts');
    await clickhouse.command('DROP TABLE IF EXISTS writer_refusal_flag');
  });

  /** The account's live calls as call_records, the test's view, an app view and a rollup of it count them. */
  const counted = async (accountId: string) => {
    const [row] = await clickhouse.query<Record<string, number>>(
      `SELECT (SELECT sum(sign) FROM call_records WHERE account_id = {a:String}) AS records,
              (SELECT sum(calls) FROM writer_refusal_counts WHERE account_id = {a:String}) AS view,
              (SELECT sum(calls) FROM call_stats_hourly WHERE account_id = {a:String}) AS hourly,
              (SELECT sum(calls) FROM account_stats_hourly WHERE account_id = {a:String}) AS rollup,
              (SELECT sum(sign) FROM call_overview_rows WHERE account_id = {a:String}) AS overview`,
      { a: accountId },
    );
    return row;
  };

  it('sends the refused INSERT again before the next one, so the calls sent again count once in every view', async () => {
    const accountId = nextAccount();
    // No background re-send in this case: the next submission completes it.
    const writer = new CallRecordWriter(clickhouse, { resendDelayMs: 3_600_000 });
    await refuse(true);
    const refused = await writer
      .submit([record(accountId, 'call_r1'), record(accountId, 'call_r2')])
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ClickHouseUnavailableError);
    // Half-way: the rows are stored, the test's view has not counted them.
    expect(await counted(accountId)).toMatchObject({ records: 2, view: 0 });
    expect(writer.hasUnfinished).toBe(true);

    await refuse(false);
    // The sender's retry of the 503: the same calls, one of them changed meanwhile.
    await writer.submit([record(accountId, 'call_r1'), record(accountId, 'call_r2', { status: 'failed' })]);
    expect(writer.hasUnfinished).toBe(false);
    expect(await counted(accountId)).toEqual({ records: 2, view: 2, hourly: 2, rollup: 2, overview: 2 });
    expect((await stored(accountId)).map((row) => [row.call_id, row.status])).toEqual([
      ['call_r1', 'connected'],
      ['call_r2', 'failed'],
    ]);
  });

  it('completes a refused INSERT by itself when nothing else is submitted, once the engine takes it', async () => {
    const accountId = nextAccount();
    const writer = new CallRecordWriter(clickhouse, { resendDelayMs: 100 });
    await refuse(true);
    await expect(writer.submit([record(accountId, 'call_r3')])).rejects.toBeInstanceOf(ClickHouseUnavailableError);
    expect(await counted(accountId)).toMatchObject({ records: 1, view: 0 });
    await refuse(false);
    await until('the writer completes the refused INSERT', async () => !writer.hasUnfinished, SETTLE_DEADLINE_MS);
    expect(await counted(accountId)).toEqual({ records: 1, view: 1, hourly: 1, rollup: 1, overview: 1 });
  });

  it('refuses a new batch while the refused INSERT is still refused, and stores both once it is taken', async () => {
    const accountId = nextAccount();
    const writer = new CallRecordWriter(clickhouse, { resendDelayMs: 3_600_000 });
    await refuse(true);
    await expect(writer.submit([record(accountId, 'call_r4')])).rejects.toBeInstanceOf(ClickHouseUnavailableError);
    await expect(writer.submit([record(accountId, 'call_r5')])).rejects.toBeInstanceOf(ClickHouseUnavailableError);
    // call_r5 never reached the engine: its INSERT waits behind the unfinished one.
    expect(await counted(accountId)).toMatchObject({ records: 1, view: 0 });
    await refuse(false);
    await writer.submit([record(accountId, 'call_r5')]);
    expect(await counted(accountId)).toEqual({ records: 2, view: 2, hourly: 2, rollup: 2, overview: 2 });
  });
});
