import { mkdtempSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClickHouse } from '../../src/infrastructure/clickhouse/clickhouse.factory';
import type { ClickHouseExecutor } from '../../src/infrastructure/clickhouse/clickhouse.port';
import { runMigrations } from '../../src/infrastructure/clickhouse/migrations';
import { CLICKHOUSE_MIGRATIONS } from '../../src/infrastructure/clickhouse/migrations/index';
import { CallRecord, talkOf } from '../../src/calls/ingestion/call-record';

/**
 * Migration 5 meets a data directory with calls stored before it: their `answered` and
 * `billable_seconds` are the column defaults, which must say what ingestion's talkOf says of the
 * same facts; the talk tables are backfilled from them and then follow new and retracted versions.
 */
const root = mkdtempSync(join(tmpdir(), 'trunkline-talk-'));
afterAll(() => rm(root, { recursive: true, force: true }));

const T0 = Date.UTC(2026, 1, 10, 8, 0, 0);
const STATUSES = ['connected', 'failed', 'disconnected'] as const;
const CODES = [null, 200, 486, 487, 503];

/** Call k's facts: every combination of status, code, answer and end over the ks. */
function facts(k: number) {
  const start = T0 + k * 61_003;
  const end = k % 9 === 0 ? null : start + 1_000 + (k % 97) * 731;
  const answered = k % 4 === 0 || end === null ? null : start + (k % 13) * 173;
  return {
    k,
    status: STATUSES[k % 3],
    sip_code: CODES[k % 5],
    start,
    end,
    answered: answered !== null && end !== null && answered > end ? end : answered,
    // Sometimes a duration the gateway stated, shorter than the times say.
    duration: end === null ? 0 : k % 11 === 0 ? 1 : Math.floor((end - start) / 1000),
  };
}

const ch_ms = (ms: number | null) => (ms === null ? 'NULL' : `fromUnixTimestamp64Milli(toInt64(${ms}), 'UTC')`);

/** Rows as migrations 1-4 stored them (no talk columns), `sign` and `version` as the writer writes them. */
const insertOld = (ch: ClickHouseExecutor, ks: number[], version: number, sign: 1 | -1) =>
  ch.command(`INSERT INTO call_records (account_id, start_time, call_id, version, sign, trunk_id, status, duration_seconds,
      end_time, answered_at, sip_code) VALUES ${ks
        .map(facts)
        .map(
          (f) =>
            `('acct_t', ${ch_ms(f.start)}, 'call_${f.k}', ${version}, ${sign}, 'conn_${f.k % 3}', '${f.status}', ${f.duration}, ${ch_ms(f.end)}, ${ch_ms(f.answered)}, ${f.sip_code ?? 'NULL'})`,
        )
        .join(', ')}`);

const talkSums = async (ch: ClickHouseExecutor, table: string) =>
  (
    await ch.query<Record<string, number | string>>(
      `SELECT sum(answered) AS answered, sum(billable_sum) AS billable, sum(mos_calls) AS mos_calls, sum(mos_centi_sum) AS mos_centi FROM ${table}`,
    )
  ).map((row) => Object.fromEntries(Object.entries(row).map(([k, v]) => [k, Number(v)])));

describe('billable seconds, answered calls and MOS (migration 5)', () => {
  let ch: ClickHouseExecutor;
  const ks = Array.from({ length: 600 }, (_, k) => k);

  beforeAll(async () => {
    ch = await createClickHouse({ url: null, dataDir: join(root, 'ch'), migrations: [] });
  });
  afterAll(() => ch?.close());

  it("gives stored rows talkOf's answer as defaults and backfills the talk tables from them", async () => {
    await runMigrations(
      ch,
      CLICKHOUSE_MIGRATIONS.filter((m) => m.version < 5),
    );
    await insertOld(ch, ks, 1, 1);
    expect(await runMigrations(ch, CLICKHOUSE_MIGRATIONS)).toEqual([5, 6, 7, 8, 9]);
    const rows = await ch.query<{ call_id: string; answered: number; billable_seconds: number; mos: number | null }>(
      'SELECT call_id, answered, billable_seconds, mos FROM call_records FINAL ORDER BY call_id',
    );
    expect(rows).toHaveLength(ks.length);
    const expected = new Map(
      ks.map((k) => {
        const f = facts(k);
        const talk = talkOf({
          status: f.status as CallRecord['status'],
          duration_seconds: f.duration,
          end_time: f.end === null ? null : new Date(f.end),
          answered_at: f.answered === null ? null : new Date(f.answered),
          sip_code: f.sip_code,
        });
        return [`call_${k}`, { answered: Number(talk.answered), billable_seconds: talk.billable_seconds, mos: null }];
      }),
    );
    const got = new Map(
      rows.map((r) => [
        r.call_id,
        { answered: Number(r.answered), billable_seconds: Number(r.billable_seconds), mos: r.mos },
      ]),
    );
    expect(got).toEqual(expected);
    // Every kind of outcome is there: answered and not, billable from the times, the duration and 0.
    const values = [...expected.values()];
    expect(values.filter((v) => v.answered === 0).length).toBeGreaterThan(50);
    expect(values.filter((v) => v.answered === 1 && v.billable_seconds > 0).length).toBeGreaterThan(50);
    const sum = values.reduce((a, v) => a + v.billable_seconds, 0);
    const answered = values.reduce((a, v) => a + v.answered, 0);
    for (const table of ['call_talk_hourly', 'account_talk_hourly'])
      expect(await talkSums(ch, table)).toEqual([{ answered, billable: sum, mos_calls: 0, mos_centi: 0 }]);
  });

  it('follows a later version of a call through both talk tables (the old one subtracted)', async () => {
    const before = (await talkSums(ch, 'call_talk_hourly'))[0];
    // Call 1 again: its stored version cancelled as the writer does, the new one with a MOS and 7 billable seconds.
    const [old] = await ch.query<Record<string, unknown>>(
      "SELECT * EXCEPT (sign) FROM call_records FINAL WHERE call_id = 'call_1'",
    );
    await ch.insert('call_records', [
      { ...old, sign: -1 },
      { ...old, version: 2, sign: 1, answered: 1, billable_seconds: 7, mos: 4.12 },
    ]);
    const delta = (after: number, was: number) => after - was;
    for (const table of ['call_talk_hourly', 'account_talk_hourly']) {
      const [after] = await talkSums(ch, table);
      expect(delta(after.billable, before.billable)).toBe(7 - Number(old.billable_seconds));
      expect(delta(after.answered, before.answered)).toBe(1 - Number(old.answered));
      expect([after.mos_calls, after.mos_centi]).toEqual([1, 412]);
    }
  });

  it('applies nothing, and counts nothing twice, when migrations run again', async () => {
    const before = await talkSums(ch, 'account_talk_hourly');
    expect(await runMigrations(ch, CLICKHOUSE_MIGRATIONS)).toEqual([]);
    expect(await talkSums(ch, 'account_talk_hourly')).toEqual(before);
  });
});

describe('migration 5 over rows stored before migration 3 (no signalling columns in their parts)', () => {
  let ch: ClickHouseExecutor;
  beforeAll(async () => {
    ch = await createClickHouse({ url: null, dataDir: join(root, 'ch-old'), migrations: [] });
  });
  afterAll(() => ch?.close());

  it('answers them by status alone: answered unless failed, billable = the whole duration', async () => {
    await runMigrations(
      ch,
      CLICKHOUSE_MIGRATIONS.filter((m) => m.version < 3),
    );
    await ch.command(`INSERT INTO call_records (account_id, start_time, call_id, version, sign, trunk_id, status, duration_seconds, end_time)
      SELECT 'acct_old', fromUnixTimestamp64Milli(toInt64(${T0} + k * 60_000), 'UTC'), concat('call_', toString(k)), 1, 1, 'conn_old',
        ['connected', 'failed', 'disconnected'][1 + k % 3], k % 50, fromUnixTimestamp64Milli(toInt64(${T0} + k * 60_000 + (k % 50) * 1000), 'UTC')
      FROM (SELECT number AS k FROM numbers(90))`);
    expect(await runMigrations(ch, CLICKHOUSE_MIGRATIONS)).toEqual([3, 4, 5, 6, 7, 8, 9]);
    const rows = await ch.query<{
      status: string;
      duration_seconds: number;
      answered: number;
      billable_seconds: number;
    }>('SELECT status, duration_seconds, answered, billable_seconds FROM call_records FINAL');
    expect(rows).toHaveLength(90);
    for (const r of rows)
      expect([Number(r.answered), Number(r.billable_seconds)]).toEqual(
        r.status === 'failed' ? [0, 0] : [1, Number(r.duration_seconds)],
      );
    const [sums] = await talkSums(ch, 'account_talk_hourly');
    expect(sums.answered).toBe(60);
  });
});
