import { mkdtempSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClickHouse } from '../../src/infrastructure/clickhouse/clickhouse.factory';
import type { ClickHouseExecutor } from '../../src/infrastructure/clickhouse/clickhouse.port';
import { runMigrations } from '../../src/infrastructure/clickhouse/migrations';
import { CLICKHOUSE_MIGRATIONS } from '../../src/infrastructure/clickhouse/migrations/index';
import { talkOf } from '../../src/calls/ingestion/call-record';
import { CallRow, rowOf } from '../../src/calls/ingestion/call-record.row';
import { CallRecordInput, generateCalls } from '../../bench/lib/calls/call-generator';

/**
 * The daily aggregates and the latency histogram rows are filled twice over: by the backfill when
 * migration 2 runs on a database that already holds calls, and by their views afterwards. Either
 * way they must equal what the hourly aggregates and the raw records say, cancelled versions included.
 */
const DAY = 86_400_000;
const root = mkdtempSync(join(tmpdir(), 'trunkline-daily-stats-'));
afterAll(() => rm(root, { recursive: true, force: true }));

const ACCOUNT = 'acct_daily';
const TRUNKS = ['conn_a', 'conn_b', 'conn_c'];

function row(r: CallRecordInput, version: number): Record<string, unknown> {
  const start = new Date(r.start_time);
  const end = r.end_time ? new Date(r.end_time) : null;
  const built: CallRow = rowOf(
    {
      id: r.id,
      trunk_id: r.trunk_id,
      direction: r.direction,
      from: r.from,
      to: r.to,
      status: r.status,
      start_time: start,
      end_time: end,
      duration_seconds: r.duration_seconds ?? 0,
      carrier_lag_ms: r.carrier_lag_ms ?? null,
      ai_latency_ms: r.ai_latency_ms ?? null,
      gateway_processing_ms: r.gateway_processing_ms ?? null,
      packet_loss_percent: r.packet_loss_percent ?? null,
      jitter_ms: r.jitter_ms ?? null,
      codec_used: r.codec_used ?? null,
      disconnect_reason: r.disconnect_reason ?? null,
      turns: [],
      sip_trace: null,
      mos: null,
      ...talkOf({
        status: r.status,
        duration_seconds: r.duration_seconds ?? 0,
        end_time: end,
        answered_at: null,
        sip_code: null,
      }),
      account_id: ACCOUNT,
      provider: 'openai',
    },
    version,
    new Date(),
  );
  return { ...built };
}

const SUMS =
  'sum(calls) AS calls, sum(connected) AS connected, sum(failed) AS failed, sum(duration_sum) AS duration_sum, sum(latency_calls) AS latency_calls, sum(total_latency_sum) AS total_latency_sum, sum(jitter_sum) AS jitter_sum, sumMap(codecs) AS codecs';

const perDayFromHourly = (ch: ClickHouseExecutor) =>
  ch.query(
    `SELECT toUnixTimestamp(toStartOfDay(hour)) AS d, trunk_id, ${SUMS} FROM call_stats_hourly GROUP BY d, trunk_id ORDER BY d, trunk_id`,
  );
const perDayFromDaily = (ch: ClickHouseExecutor) =>
  ch.query(
    `SELECT toUnixTimestamp(day) AS d, trunk_id, ${SUMS} FROM call_stats_daily GROUP BY d, trunk_id ORDER BY d, trunk_id`,
  );
// The latency histogram three ways: from the raw records (signed), the hourly rows, the daily rows.
const HIST = (table: string, time: string, bin: string, n: string, where = '1') =>
  `SELECT toUnixTimestamp(toStartOfDay(${time})) AS d, trunk_id, ${bin} AS b, sum(${n}) AS calls_in_bin FROM ${table} WHERE ${where}
   GROUP BY d, trunk_id, b HAVING calls_in_bin != 0 ORDER BY d, trunk_id, b`;
async function histograms(ch: ClickHouseExecutor): Promise<unknown[][]> {
  return Promise.all([
    ch.query(HIST('call_records', 'start_time', 'latency_bin', 'toInt64(sign)', 'total_latency_ms IS NOT NULL')),
    ch.query(HIST('call_latency_hourly', 'hour', 'bin', 'n')),
    ch.query(HIST('call_latency_daily', 'day', 'bin', 'n')),
  ]);
}

describe('daily call aggregates', () => {
  let ch: ClickHouseExecutor;
  const now = Date.now();
  const calls = [
    ...generateCalls({ count: 600, trunkIds: TRUNKS, from: new Date(now - 4 * DAY), to: new Date(now), seed: 7 }),
  ];

  beforeAll(async () => {
    ch = await createClickHouse({ url: null, dataDir: join(root, 'ch'), migrations: [] });
  });
  afterAll(() => ch?.close());

  it('backfills from the hourly aggregates when the migration meets existing calls', async () => {
    await runMigrations(
      ch,
      CLICKHOUSE_MIGRATIONS.filter((m) => m.version === 1),
    );
    // Rows as the writer of that time wrote them: only the columns migration 1 created.
    const columns = new Set(
      (await ch.query<{ name: string }>("SELECT name FROM system.columns WHERE table = 'call_records'")).map(
        (c) => c.name,
      ),
    );
    await ch.insert(
      'call_records',
      calls
        .slice(0, 300)
        .map((r) => Object.fromEntries(Object.entries(row(r, 1)).filter(([name]) => columns.has(name)))),
    );
    expect(await runMigrations(ch, CLICKHOUSE_MIGRATIONS)).toContain(2);
    const daily = await perDayFromDaily(ch);
    expect(daily.length).toBeGreaterThanOrEqual(TRUNKS.length * 4);
    expect(daily).toEqual(await perDayFromHourly(ch));
    const [raw, hourly, dailyHist] = await histograms(ch);
    expect(raw.length).toBeGreaterThan(100);
    expect(hourly).toEqual(raw);
    expect(dailyHist).toEqual(raw);
  });

  it('follows new calls and retracted versions through the cascading view', async () => {
    await ch.insert(
      'call_records',
      calls.slice(300).map((r) => row(r, 1)),
    );
    // A later version of every tenth call: the stored version cancelled (sign -1), the new one added.
    const revised = calls.filter((_, i) => i % 10 === 0);
    await ch.insert(
      'call_records',
      revised.flatMap((r) => [
        { ...row(r, 1), sign: -1 },
        row({ ...r, status: 'failed', ai_latency_ms: (r.ai_latency_ms ?? 100) + 5_000 }, 2),
      ]),
    );
    const daily = await perDayFromDaily(ch);
    expect(daily).toEqual(await perDayFromHourly(ch));
    const [raw, hourly, dailyHist] = await histograms(ch);
    expect(hourly).toEqual(raw);
    expect(dailyHist).toEqual(raw);
    const total = daily.reduce((sum, r) => sum + Number((r as { calls: number }).calls), 0);
    expect(total).toBe(calls.length);
    const failed = daily.reduce((sum, r) => sum + Number((r as { failed: number }).failed), 0);
    expect(failed).toBe(calls.filter((c, i) => i % 10 === 0 || c.status === 'failed').length);
  });

  it('applies nothing, and counts nothing twice, when migrations run again', async () => {
    const before = await perDayFromDaily(ch);
    expect(await runMigrations(ch, CLICKHOUSE_MIGRATIONS)).toEqual([]);
    expect(await perDayFromDaily(ch)).toEqual(before);
  });
});
