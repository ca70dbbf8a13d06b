import { mkdtempSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { enrich } from '../../bench/analytics/analytics-load';
import { generateCalls } from '../../bench/lib/calls/call-generator';
import type { CallRecordInput } from '../../bench/lib/calls/call-record';
import { AnalyticsOverviewQueryDto } from '../../src/analytics/read/analytics.dto';
import { GetAnalyticsOverview, GetAnalyticsOverviewHandler } from '../../src/analytics/read/analytics.queries';
import { OverviewCache } from '../../src/analytics/read/overview-cache';
import { latencyBin, talkOf } from '../../src/calls/ingestion/call-record';
import { type CallRow, rowOf } from '../../src/calls/ingestion/call-record.row';
import { NO_SIGNALLING } from '../../src/calls/ingestion/call-signalling';
import { createClickHouse } from '../../src/infrastructure/clickhouse/clickhouse.factory';
import type { ClickHouseExecutor } from '../../src/infrastructure/clickhouse/clickhouse.port';
import { runMigrations } from '../../src/infrastructure/clickhouse/migrations';
import { CLICKHOUSE_MIGRATIONS } from '../../src/infrastructure/clickhouse/migrations/index';
import { OVERVIEW_ROWS_MIGRATION } from '../../src/infrastructure/clickhouse/migrations/008-overview-rows';
import { expectedOverview, type Trunk } from '../support/expected-analytics';

/**
 * The overview's partial edge hours are read from call_overview_rows (migration 8), the narrow
 * copy of call_records: backfilled from the rows stored before the migration, then fed by its
 * view, cancel rows included. For ranges cut inside hours and minutes, every figure must equal the
 * same figures computed from the records' latest versions one by one, and the answer must equal
 * the one whose edges read call_records FINAL itself.
 */
const root = mkdtempSync(join(tmpdir(), 'trunkline-overview-edges-'));
afterAll(() => rm(root, { recursive: true, force: true }));

const HOUR = 3_600_000;
const T0 = Date.UTC(2026, 0, 30, 20, 0, 0);
const ACCOUNT = 'acct_edges';
const TRUNKS: Trunk[] = ['a', 'b', 'c'].map((k) => ({
  id: `conn_edges_${k}`,
  name: `conn_edges_${k}`,
  provider: 'unknown',
}));
const NOW = new Date(T0 + 9 * HOUR);
/** Failed records get a final code, one in three none. */
const CODES = [486, 503, undefined];

function record(r: CallRecordInput, k: number): CallRecordInput {
  return r.status === 'failed' ? { ...r, sip_code: CODES[k % 3] } : r;
}

/** What ingestion stores for a record: the bench's enrichment, with the final code and the answer time as signalling. */
function rowFor(r: CallRecordInput, version: number): CallRow {
  const record = enrich(r, ACCOUNT, 'unknown', false);
  const answeredAt = r.answered_at ? new Date(r.answered_at) : null;
  const signalling = { ...NO_SIGNALLING, answered_at: answeredAt, sip_code: r.sip_code ?? null };
  const talk = talkOf({ ...record, answered_at: answeredAt, sip_code: signalling.sip_code });
  return rowOf({ ...record, ...talk, signalling }, version, NOW);
}

/** The records as stored, by id (the latest version), and the store's rows written the writer's way. */
class Store {
  readonly latest = new Map<string, { record: CallRecordInput; row: CallRow }>();
  private version = 1;
  constructor(private readonly ch: ClickHouseExecutor) {}

  /** First versions, or a re-send: the stored version's cancel row (sign -1) and the new version. */
  async put(records: CallRecordInput[]): Promise<void> {
    const rows: CallRow[] = [];
    for (const record of records) {
      const stored = this.latest.get(record.id);
      if (stored) rows.push({ ...stored.row, sign: -1 });
      const row = rowFor(record, this.version++);
      rows.push(row);
      this.latest.set(record.id, { record, row });
    }
    await this.ch.insert('call_records', rows);
  }

  get records(): CallRecordInput[] {
    return [...this.latest.values()].map((v) => v.record);
  }
}

const generate = (count: number, startIndex: number, seed: number) =>
  [
    ...generateCalls({
      count,
      startIndex,
      trunkIds: TRUNKS.map((t) => t.id),
      from: new Date(T0),
      to: new Date(T0 + 4 * HOUR),
      seed,
    }),
  ].map((r, k) => record(r, k + startIndex));

/** A later version: moved by 37 min 13.2 s (into another minute, often another hour), another status and latency. */
const SHIFT = 37 * 60_000 + 13_200;
const shifted = (at: string | undefined) =>
  at === undefined ? undefined : new Date(Date.parse(at) + SHIFT).toISOString();
const resent = (r: CallRecordInput, k: number): CallRecordInput =>
  record(
    {
      ...r,
      sip_code: undefined,
      start_time: shifted(r.start_time)!,
      end_time: shifted(r.end_time),
      answered_at: shifted(r.answered_at),
      status: k % 2 === 0 ? 'failed' : 'connected',
      ai_latency_ms: (r.ai_latency_ms ?? 400) + 97 * (k % 5),
    },
    k + 1,
  );

/** Ranges cut inside hours, minutes and seconds; one inside a single hour; one inside a single minute. */
const RANGES: [string, number, number][] = [
  ['hours apart', T0 + 17 * 60_000 + 12_345, T0 + 3 * HOUR + 41 * 60_000 + 7_500],
  ['inside one hour', T0 + 2 * HOUR + 3 * 60_000 + 999, T0 + 2 * HOUR + 58 * 60_000 + 1],
  ['inside one minute', T0 + HOUR + 30 * 60_000 + 1_250, T0 + HOUR + 30 * 60_000 + 58_750],
];

describe('the overview edges from call_overview_rows (migration 8)', () => {
  let ch: ClickHouseExecutor;
  let store: Store;

  beforeAll(async () => {
    ch = await createClickHouse({ url: null, dataDir: join(root, 'ch'), migrations: [] });
    await runMigrations(
      ch,
      CLICKHOUSE_MIGRATIONS.filter((m) => m.version < 8),
    );
    store = new Store(ch);
  });
  afterAll(() => ch?.close());

  const ask = (
    executor: ClickHouseExecutor,
    range: [number, number],
    granularity: 'hourly' | 'daily',
    trunkId?: string,
    cache = new OverviewCache({ ttlMs: 0, maxRows: 1 }),
  ) =>
    new GetAnalyticsOverviewHandler(executor, cache).execute(
      new GetAnalyticsOverview(
        ACCOUNT,
        Object.assign(new AnalyticsOverviewQueryDto(), {
          start_date: new Date(range[0]).toISOString(),
          end_date: new Date(range[1]).toISOString(),
          granularity,
          ...(trunkId ? { trunk_id: trunkId } : {}),
        }),
        NOW,
      ),
    ) as Promise<Record<string, any>>;

  /** The same handler, its edges read from call_records FINAL (the latest versions, no signs to weigh). */
  const fromFinal = (): ClickHouseExecutor => {
    const executor = Object.create(ch) as ClickHouseExecutor;
    executor.query = (sql, params) =>
      ch.query(sql.replaceAll('FROM call_overview_rows ', 'FROM call_records FINAL '), params);
    return executor;
  };

  /** The records' figures one by one; percentiles are nearest ranks of the latency bins the service ranks. */
  const expected = (range: [number, number], hourly: boolean, trunkId?: string) => {
    const binned = <T extends Record<'p50_latency_ms' | 'p95_latency_ms' | 'p99_latency_ms', number>>(o: T): T => ({
      ...o,
      p50_latency_ms: latencyBin(o.p50_latency_ms),
      p95_latency_ms: latencyBin(o.p95_latency_ms),
      p99_latency_ms: latencyBin(o.p99_latency_ms),
    });
    const e = expectedOverview(store.records, TRUNKS, new Date(range[0]), new Date(range[1]), hourly, trunkId);
    return { ...e, performance: binned(e.performance), timeseries: e.timeseries.map(binned) };
  };

  /**
   * Every range's overviews against the records' figures. With `cache` (copies kept for an hour,
   * shared by every request), each range is asked again with its start and end moved within their
   * hours, so edges are answered from a kept copy and the raw rows between its instants and the
   * new ones (analytics.queries.ts, `planEdge`).
   */
  async function expectExact(cache?: OverviewCache): Promise<void> {
    const moves = cache
      ? [
          [0, 0],
          [97_000, -83_000],
          [-41_000, 29_000],
          [1, 0],
        ]
      : [[0, 0]];
    for (const [name, start, end] of RANGES)
      for (const [from, to] of moves.map(([a, b]) => [start + a, end + b]).filter(([a, b]) => a < b))
        for (const [granularity, trunkId] of [
          ['hourly', undefined],
          ['daily', undefined],
          ['hourly', TRUNKS[1].id],
        ] as const) {
          const label = `${name} ${new Date(from).toISOString()}, ${granularity}${trunkId ? ', one trunk' : ''}`;
          await expectRangeExact(label, [from, to], granularity, trunkId, cache);
        }
  }

  async function expectRangeExact(
    label: string,
    [from, to]: [number, number],
    granularity: 'hourly' | 'daily',
    trunkId: string | undefined,
    cache: OverviewCache | undefined,
  ): Promise<void> {
    const answer = await ask(ch, [from, to], granularity, trunkId, cache);
    const want = expected([from, to], granularity === 'hourly', trunkId);
    if (!trunkId) expect({ label, total: answer.summary.total_calls }).not.toEqual({ label, total: 0 });
    expect({ label, summary: answer.summary }).toEqual({ label, summary: want.summary });
    expect({ label, performance: answer.performance }).toEqual({ label, performance: want.performance });
    expect({ label, by_trunk: answer.by_trunk }).toEqual({ label, by_trunk: want.by_trunk });
    expect({ label, timeseries: answer.timeseries }).toEqual({ label, timeseries: want.timeseries });
    expect({ label, codes: answer.failures.by_sip_code }).toEqual({ label, codes: want.failures.by_sip_code });
    expect({ label, mos: answer.quality.avg_mos }).toEqual({ label, mos: want.quality.avg_mos });
    // Every figure as from the latest versions alone; the loss average is a sum of Float64 values added and
    // subtracted in another order, so within 0.01 (as the e2e tests hold it).
    const final = await ask(fromFinal(), [from, to], granularity, trunkId);
    const loss = (a: Record<string, any>) => a.quality.avg_packet_loss_percent as number;
    expect(Math.abs(loss(answer) - loss(final))).toBeLessThanOrEqual(0.01 + 1e-9);
    const lossless = (a: Record<string, any>) => ({ ...a, quality: { ...a.quality, avg_packet_loss_percent: 0 } });
    expect({ label, answer: lossless(answer) }).toEqual({ label, answer: lossless(final) });
  }

  it('backfills the rows stored before the migration, cancel rows included, and answers every edge exactly', async () => {
    // Given calls and re-sends of a third of them stored before migration 8
    const first = generate(1_500, 0, 7);
    await store.put(first);
    await store.put(first.filter((_, k) => k % 3 === 0).map(resent));
    // When the migration runs
    expect(await runMigrations(ch, CLICKHOUSE_MIGRATIONS)).toEqual([8, 9]);
    // Then its table holds every stored row with its sign, and every overview equals the records' figures
    await expectSameRows();
    await expectExact();
  });

  it('follows new calls and re-sends through its view', async () => {
    // Given more calls, and re-sends of calls stored before and after the migration
    const more = generate(1_500, 1_500, 8);
    await store.put(more);
    await store.put([...store.records].filter((_, k) => k % 4 === 1).map((r, k) => resent(r, k + 2)));
    // Then the edges still equal the records' latest versions
    await expectSameRows();
    await expectExact();
  });

  it('counts nothing twice when its statements run again', async () => {
    // When the migration is applied again from its first statement (a half-applied attempt's re-run)
    for (const statement of OVERVIEW_ROWS_MIGRATION.sql) await ch.command(statement);
    // Then the table still holds each stored row once
    await expectSameRows();
    await expectExact();
  });

  it('answers as exactly when edges moved within their hours are read from kept copies and the rows in between', async () => {
    // Given the stored calls and re-sends, and one instance's copies kept for an hour
    const cache = new OverviewCache({ ttlMs: 3_600_000, maxRows: 100_000 });
    // Then every range, asked again with its start and end moved within their hours, equals the records' figures
    await expectExact(cache);
  });

  async function expectSameRows(): Promise<void> {
    const count = (table: string) =>
      ch.query<{ rows: string; calls: string }>(
        `SELECT toString(count()) AS rows, toString(sum(sign)) AS calls FROM ${table}`,
      );
    const [records] = await count('call_records');
    expect(await count('call_overview_rows')).toEqual([records]);
    expect(Number(records.calls)).toBe(store.latest.size);
  }
});
