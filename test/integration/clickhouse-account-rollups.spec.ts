import { mkdtempSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClickHouse } from '../../src/infrastructure/clickhouse/clickhouse.factory';
import type { ClickHouseExecutor } from '../../src/infrastructure/clickhouse/clickhouse.port';
import { runMigrations } from '../../src/infrastructure/clickhouse/migrations';
import { CLICKHOUSE_MIGRATIONS } from '../../src/infrastructure/clickhouse/migrations/index';

/**
 * Migration 4's account-level rollups must always equal their trunk-level tables summed over the
 * trunks: backfilled when the migration meets a data directory that already holds calls, then kept
 * by views cascading from the trunk-level tables, retracted versions included.
 */
const root = mkdtempSync(join(tmpdir(), 'trunkline-account-rollups-'));
afterAll(() => rm(root, { recursive: true, force: true }));

const T0 = Date.UTC(2026, 0, 30, 20, 0, 0);

/**
 * Calls k in [from, to) of two accounts and four trunks over three days, some without latency,
 * signalling times or codec, with failure classes; `version` and `sign` as the writer stores them.
 */
const insertCalls = (ch: ClickHouseExecutor, from: number, to: number, version: number, sign: 1 | -1, failed = false) =>
  ch.command(`INSERT INTO call_records (account_id, start_time, call_id, version, sign, trunk_id, status,
      duration_seconds, carrier_lag_ms, ai_latency_ms, total_latency_ms, latency_bin, packet_loss_percent, jitter_ms,
      codec_group, failure_class, invite_at, ringing_at, answered_at)
    SELECT if(k % 5 = 0, 'acct_b', 'acct_a'), fromUnixTimestamp64Milli(toInt64(${T0} + k * 97_003), 'UTC'), concat('call_', toString(k)),
      ${version}, ${sign}, concat('conn_', toString(k % 4)), ${failed ? "'failed'" : "if(k % 7 = 0, 'failed', 'connected')"},
      k % 300, if(k % 11 = 0, NULL, k % 90), if(k % 11 = 0, NULL, 200 + k % 900), if(k % 11 = 0, NULL, 250 + k % 990),
      if(k % 11 = 0, 0, 250 + k % 990), if(k % 3 = 0, NULL, (k % 17) / 10), if(k % 4 = 0, NULL, k % 40),
      ['', 'G711', 'G722'][1 + k % 3], if(k % 7 = 0, ['busy', 'no_answer', ''][1 + k % 3], ''),
      fromUnixTimestamp64Milli(toInt64(${T0} + k * 97_003), 'UTC'),
      if(k % 6 = 0, NULL, fromUnixTimestamp64Milli(toInt64(${T0} + k * 97_003 + 900 + k % 500), 'UTC')),
      if(k % 7 = 0, NULL, fromUnixTimestamp64Milli(toInt64(${T0} + k * 97_003 + 5000 + k % 700), 'UTC'))
    FROM (SELECT number AS k FROM numbers(${from}, ${to - from}))`);

/**
 * A rollup and its trunk-level source grouped the same way, non-zero groups only, in one order.
 * Float sums (loss_sum) depend on the order of addition, so they are compared to 6 decimals.
 */
async function bothWays(ch: ClickHouseExecutor, table: string, source: string, keys: string, sums: string[]) {
  const sum = (c: string) => (c === 'loss_sum' ? `round(sum(${c}), 6)` : `sum(${c})`);
  const select = (from: string) =>
    ch.query(
      `SELECT ${keys}, ${sums.map((c) => `${sum(c)} AS ${c}`).join(', ')} FROM ${from}
       GROUP BY ${keys} HAVING ${sums.map((c) => `${c} != 0`).join(' OR ')} ORDER BY ${keys}`,
    );
  return Promise.all([select(table), select(source)]);
}

const STATS = ['calls', 'connected', 'failed', 'duration_sum', 'latency_calls', 'carrier_sum', 'total_latency_sum'];
const SIGNALLING = ['failed', 'pdd_calls', 'pdd_sum_ms', 'ring_calls', 'ring_sum_ms', 'setup_calls', 'setup_sum_ms'];

async function expectRollupsEqualSources(ch: ClickHouseExecutor): Promise<void> {
  const pairs = [
    await bothWays(ch, 'account_stats_hourly', 'call_stats_hourly', 'account_id, hour', [...STATS, 'loss_sum']),
    await bothWays(ch, 'account_latency_hourly', 'call_latency_hourly', 'account_id, hour, bin', ['n']),
    await bothWays(ch, 'account_latency_daily', 'call_latency_daily', 'account_id, day, bin', ['n']),
    await bothWays(
      ch,
      'account_signalling_hourly',
      'call_signalling_hourly',
      'account_id, hour, failure_class',
      SIGNALLING,
    ),
  ];
  for (const [rollup, source] of pairs) {
    expect(rollup.length).toBeGreaterThan(10);
    expect(rollup).toEqual(source);
  }
  const codecs = (table: string) =>
    ch.query(`SELECT account_id, sumMap(codecs) AS codecs FROM ${table} GROUP BY account_id ORDER BY account_id`);
  expect(await codecs('account_stats_hourly')).toEqual(await codecs('call_stats_hourly'));
}

const totalCalls = async (ch: ClickHouseExecutor) =>
  Number((await ch.query<{ n: number }>('SELECT sum(calls) AS n FROM account_stats_hourly'))[0].n);

describe('account-level rollups (migration 4)', () => {
  let ch: ClickHouseExecutor;

  beforeAll(async () => {
    ch = await createClickHouse({ url: null, dataDir: join(root, 'ch'), migrations: [] });
  });
  afterAll(() => ch?.close());

  it('backfills from the trunk-level tables when the migration meets existing calls', async () => {
    await runMigrations(
      ch,
      CLICKHOUSE_MIGRATIONS.filter((m) => m.version < 4),
    );
    await insertCalls(ch, 0, 1500, 1, 1);
    expect(await runMigrations(ch, CLICKHOUSE_MIGRATIONS)).toEqual([4, 5, 6, 7, 8, 9]);
    await expectRollupsEqualSources(ch);
    expect(await totalCalls(ch)).toBe(1500);
  });

  it('follows new calls and retracted versions through the cascading views', async () => {
    await insertCalls(ch, 1500, 3000, 1, 1);
    // A later version of calls 1000..1199: the stored version cancelled (sign -1), the new one failed.
    await insertCalls(ch, 1000, 1200, 1, -1);
    await insertCalls(ch, 1000, 1200, 2, 1, true);
    await expectRollupsEqualSources(ch);
    expect(await totalCalls(ch)).toBe(3000);
  });

  it('applies nothing, and counts nothing twice, when migrations run again', async () => {
    expect(await runMigrations(ch, CLICKHOUSE_MIGRATIONS)).toEqual([]);
    await expectRollupsEqualSources(ch);
    expect(await totalCalls(ch)).toBe(3000);
  });
});
