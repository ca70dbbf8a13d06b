import { mkdtempSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AnalyticsOverviewQueryDto } from '../../src/analytics/read/analytics.dto';
import { GetAnalyticsOverview, GetAnalyticsOverviewHandler } from '../../src/analytics/read/analytics.queries';
import { OverviewCache } from '../../src/analytics/read/overview-cache';
import { createClickHouse } from '../../src/infrastructure/clickhouse/clickhouse.factory';
import type { ClickHouseExecutor, QueryParams } from '../../src/infrastructure/clickhouse/clickhouse.port';

/**
 * An overview's partial edge hours, once past hours, are kept like its whole hours
 * (analytics.queries.ts, `edges`): a request whose start edge is kept reads only the end edge's raw
 * rows, one whose edges are both kept reads none, and each must answer what the raw rows answer; a
 * write into an edge's hour drops that copy, as the call-record writer's CALL_HOURS_WRITTEN does
 * (overview-invalidations.ts).
 */
const root = mkdtempSync(join(tmpdir(), 'trunkline-start-edge-'));
afterAll(() => rm(root, { recursive: true, force: true }));

const HOUR = 3_600_000;
const T0 = Date.UTC(2026, 0, 30, 20, 0, 0);
const ACCOUNT = 'acct_a';
/** Starts 25 min into T0's hour, ends 40 min into the 8th: both edges are partial hours. */
const START = T0 + 25 * 60_000 + 17_123;
const END = T0 + 7 * HOUR + 40 * 60_000;
const NOW = new Date(T0 + 7 * HOUR + 50 * 60_000);

/** Call k at T0 + k × 61.007 s over three trunks: every fourth failed, a latency on six of seven. */
const insertCalls = (
  ch: ClickHouseExecutor,
  from: number,
  count: number,
  startMs = (k: string) => `${T0} + ${k} * 61_007`,
) =>
  ch.command(`INSERT INTO call_records (account_id, start_time, call_id, version, sign, trunk_id, status, sip_code,
      duration_seconds, total_latency_ms, latency_bin, failure_class)
    SELECT '${ACCOUNT}', fromUnixTimestamp64Milli(toInt64(${startMs('k')}), 'UTC'), concat('call_', toString(k)), 1, 1,
      concat('conn_', toString(k % 3)), if(k % 4 = 0, 'failed', 'connected'), if(k % 4 = 0, 486, 200), k % 90,
      if(k % 7 = 0, NULL, toUInt32((k * 37) % 250)), if(k % 7 = 0, 0, (k * 37) % 250), if(k % 4 = 0, 'busy', '')
    FROM (SELECT number AS k FROM numbers(${from}, ${count}))`);

const query = (granularity: 'hourly' | 'daily', trunkId?: string, start = START, end = END) =>
  Object.assign(new AnalyticsOverviewQueryDto(), {
    start_date: new Date(start).toISOString(),
    end_date: new Date(end).toISOString(),
    granularity,
    ...(trunkId ? { trunk_id: trunkId } : {}),
  });

describe('the overview keeps its past edge hours like its whole hours', () => {
  let ch: ClickHouseExecutor;
  /** The parameters of every statement over the raw rows the handlers sent. */
  const reads: QueryParams[] = [];
  let spied: ClickHouseExecutor;

  beforeAll(async () => {
    ch = await createClickHouse({ url: null, dataDir: join(root, 'ch') });
    await insertCalls(ch, 0, 600);
    spied = Object.create(ch) as ClickHouseExecutor;
    spied.query = (sql, params) => {
      if (sql.includes('FROM call_overview_rows ')) reads.push(params ?? {});
      return ch.query(sql, params);
    };
  });
  afterAll(() => ch?.close());

  const handler = (cache: OverviewCache) => new GetAnalyticsOverviewHandler(spied, cache);
  const kept = () => new OverviewCache({ ttlMs: 3_600_000, maxRows: 50_000 });
  /** The same answer from the raw rows every time: no copies. */
  const uncached = () => handler(new OverviewCache({ ttlMs: 0, maxRows: 1 }));
  const ask = (h: GetAnalyticsOverviewHandler, q: AnalyticsOverviewQueryDto, now = NOW) =>
    h.execute(new GetAnalyticsOverview(ACCOUNT, q, now)) as Promise<{ summary: { total_calls: number } }>;
  /** The instants of each edge the statements since `mark` read raw rows of, [from, to) per edge ('none': empty). */
  const edgeReads = (mark: number) =>
    reads.slice(mark).map((p) =>
      [1, 2].map((e) => {
        const span = [Number(p[`from${e}_ms`]), Number(p[`to${e}_ms`])];
        return span[0] < span[1] ? span : 'none';
      }),
    );
  /** Whether the statements since `mark` read the start edge's raw rows. */
  const readStartEdge = (mark: number) => edgeReads(mark).some(([start]) => start !== 'none');

  for (const [granularity, trunkId] of [
    ['hourly', undefined],
    ['daily', undefined],
    ['hourly', 'conn_1'],
    ['daily', 'conn_2'],
  ] as const)
    it(`answers from a kept start edge what the raw rows answer, reading only the end edge (${granularity}${trunkId ? ', one trunk' : ''})`, async () => {
      // Given an instance that answered the range once (its start edge, a past hour, now kept)
      const h = handler(kept());
      const first = await ask(h, query(granularity, trunkId));
      // When it is asked again
      const mark = reads.length;
      const second = await ask(h, query(granularity, trunkId));
      // Then it read no start edge rows, and answers what an instance without copies answers
      expect(readStartEdge(mark)).toBe(false);
      expect(second.summary.total_calls).toBeGreaterThan(0);
      expect(second).toEqual(first);
      expect(second).toEqual(await ask(uncached(), query(granularity, trunkId)));
    });

  it('drops the kept start edge when the writer stores a call in its hour, and counts the call', async () => {
    // Given an instance whose start edge copy is kept
    const cache = kept();
    const h = handler(cache);
    const before = await ask(h, query('hourly'));
    // When the writer stores a call in the start edge's partial hour and drops that hour's copies
    await insertCalls(ch, 10_000, 1, () => `${START + 60_000}`);
    cache.drop(ACCOUNT, [Math.floor(START / HOUR) * HOUR]);
    // Then the next answer reads the start edge again and counts the call, as the raw rows do
    const mark = reads.length;
    const after = await ask(h, query('hourly'));
    expect(readStartEdge(mark)).toBe(true);
    expect(after.summary.total_calls).toBe(before.summary.total_calls + 1);
    expect(after).toEqual(await ask(uncached(), query('hourly')));
  });

  /** An hour after END's: the end edge's partial hour is a past hour too. */
  const LATER = new Date(END + HOUR);
  const askLater = (h: GetAnalyticsOverviewHandler, q: AnalyticsOverviewQueryDto) => ask(h, q, LATER);

  for (const [granularity, trunkId] of [
    ['hourly', undefined],
    ['daily', 'conn_2'],
  ] as const)
    it(`keeps the end edge once its hour is past, and then reads no raw rows at all (${granularity}${trunkId ? ', one trunk' : ''})`, async () => {
      // Given an instance that answered the range once, both edges past hours
      const h = handler(kept());
      const first = await askLater(h, query(granularity, trunkId));
      // When it is asked again
      const mark = reads.length;
      const second = await askLater(h, query(granularity, trunkId));
      // Then no statement read the raw rows, and it answers what an instance without copies answers
      expect(reads.length).toBe(mark);
      expect(second.summary.total_calls).toBeGreaterThan(0);
      expect(second).toEqual(first);
      expect(second).toEqual(await askLater(uncached(), query(granularity, trunkId)));
    });

  it('drops the kept end edge when the writer stores a call in its hour, and counts the call', async () => {
    // Given an instance whose edges are both kept
    const cache = kept();
    const h = handler(cache);
    const before = await askLater(h, query('daily'));
    // When the writer stores a call in the end edge's partial hour and drops that hour's copies
    await insertCalls(ch, 20_000, 1, () => `${END - 60_000}`);
    cache.drop(ACCOUNT, [Math.floor(END / HOUR) * HOUR]);
    // Then the next answer reads the end edge's raw rows again (not the start edge's) and counts the call
    const mark = reads.length;
    const after = await askLater(h, query('daily'));
    expect(edgeReads(mark).map(([, end]) => end !== 'none')).toEqual([true]);
    expect(readStartEdge(mark)).toBe(false);
    expect(after.summary.total_calls).toBe(before.summary.total_calls + 1);
    expect(after).toEqual(await askLater(uncached(), query('daily')));
  });

  const SECOND = 1_000;

  for (const [granularity, trunkId] of [
    ['hourly', undefined],
    ['daily', 'conn_1'],
  ] as const)
    it(`answers a start edge that moves within its hour from its copy and the raw rows in between (${granularity}${trunkId ? ', one trunk' : ''})`, async () => {
      // Given an instance that answered the range once, both edges past hours
      const h = handler(kept());
      await askLater(h, query(granularity, trunkId));
      // When the start moves on by 3 min (calls leave the range), then back by 5 min
      for (const [start, read] of [
        [START + 180 * SECOND, [START, START + 180 * SECOND]],
        [START - 120 * SECOND, [START - 120 * SECOND, START + 180 * SECOND]],
      ] as const) {
        const mark = reads.length;
        const answer = await askLater(h, query(granularity, trunkId, start));
        // Then only the instants between the kept start and the new one were read (the end edge is kept),
        expect(edgeReads(mark)).toEqual([[read, 'none']]);
        // and the answer is what an instance without copies answers
        expect(answer).toEqual(await askLater(uncached(), query(granularity, trunkId, start)));
      }
      // And a start further from the kept one than its edge is long (27 min, 10 min before the hour's end) reads
      // the edge itself, as does a start in another hour (no copy)
      for (const far of [T0 + 50 * 60 * SECOND, START - 40 * 60 * SECOND]) {
        const mark = reads.length;
        const answer = await askLater(h, query(granularity, trunkId, far));
        expect(edgeReads(mark)[0][0]).toEqual([far, Math.ceil(far / HOUR) * HOUR]);
        expect(answer).toEqual(await askLater(uncached(), query(granularity, trunkId, far)));
      }
    });

  it('answers an end edge that moves within its past hour from its copy and the raw rows in between', async () => {
    // Given an instance that answered the range once, both edges past hours
    const h = handler(kept());
    await askLater(h, query('hourly'));
    // When the end moves back by 4 min, then on by 7 min
    for (const [end, read] of [
      [END - 240 * SECOND, [END - 240 * SECOND + 1, END + 1]],
      [END + 180 * SECOND, [END - 240 * SECOND + 1, END + 180 * SECOND + 1]],
    ] as const) {
      const mark = reads.length;
      const answer = await askLater(h, query('hourly', undefined, START, end));
      // Then only the instants between the kept end and the new one were read (the start edge is kept)
      expect(edgeReads(mark)).toEqual([['none', read]]);
      expect(answer.summary.total_calls).toBeGreaterThan(0);
      expect(answer).toEqual(await askLater(uncached(), query('hourly', undefined, START, end)));
    }
  });

  it('keeps the start edge when the writer stores calls in other hours only', async () => {
    // Given an instance whose start edge copy is kept
    const cache = kept();
    const h = handler(cache);
    await ask(h, query('daily'));
    // When the writer drops the hour after the start edge's (a whole hour of the range)
    cache.drop(ACCOUNT, [Math.floor(START / HOUR) * HOUR + HOUR]);
    // Then the start edge is still not read
    const mark = reads.length;
    await ask(h, query('daily'));
    expect(readStartEdge(mark)).toBe(false);
  });
});
