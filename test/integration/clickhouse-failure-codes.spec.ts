import { mkdtempSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClickHouse } from '../../src/infrastructure/clickhouse/clickhouse.factory';
import type { ClickHouseExecutor } from '../../src/infrastructure/clickhouse/clickhouse.port';
import { runMigrations } from '../../src/infrastructure/clickhouse/migrations';
import { CLICKHOUSE_MIGRATIONS } from '../../src/infrastructure/clickhouse/migrations/index';

/**
 * Migration 7's failed calls by final SIP code must always equal the latest version of each failed
 * call counted by its code: backfilled when the migration meets stored calls, then kept by the views
 * (a re-sent call's cancel row subtracts the version it retracts), at trunk and account level.
 */
const root = mkdtempSync(join(tmpdir(), 'trunkline-failure-codes-'));
afterAll(() => rm(root, { recursive: true, force: true }));

const T0 = Date.UTC(2026, 0, 30, 20, 0, 0);
const CODES = '[486, 503, 404, 0, 408, 486, 480]';

/**
 * Calls k in [from, to) of two accounts and three trunks over two days: every third failed, with a
 * final code (one in seven without any), the others connected with 200; `version` and `sign` as
 * the writer stores them.
 */
const insertCalls = (ch: ClickHouseExecutor, from: number, to: number, version: number, sign: 1 | -1, shift = 0) =>
  ch.command(`INSERT INTO call_records (account_id, start_time, call_id, version, sign, trunk_id, status, sip_code)
    SELECT if(k % 5 = 0, 'acct_b', 'acct_a'), fromUnixTimestamp64Milli(toInt64(${T0} + k * 61_007), 'UTC'),
      concat('call_', toString(k)), ${version}, ${sign}, concat('conn_', toString(k % 3)),
      if((k + ${shift}) % 3 = 0, 'failed', 'connected'),
      if((k + ${shift}) % 3 = 0, nullIf(${CODES}[1 + (k + ${shift}) % 7], 0), 200)
    FROM (SELECT number AS k FROM numbers(${from}, ${to - from}))`);

interface CodeCount {
  account_id: string;
  trunk_id?: string;
  hour: string;
  code: number;
  failed: number | string;
}

/** What the tables must hold: the latest version of each failed call, by hour, trunk and code. */
const fromRecords = (ch: ClickHouseExecutor, perTrunk: boolean) =>
  ch.query<CodeCount>(
    `SELECT account_id, ${perTrunk ? 'trunk_id, ' : ''}toStartOfHour(start_time) AS hour, toUInt16(ifNull(sip_code, 0)) AS code,
       toInt64(count()) AS failed
     FROM call_records FINAL WHERE status = 'failed'
     GROUP BY account_id, ${perTrunk ? 'trunk_id, ' : ''}hour, code ORDER BY account_id, ${perTrunk ? 'trunk_id, ' : ''}hour, code`,
  );
const fromTable = (ch: ClickHouseExecutor, table: string, perTrunk: boolean) =>
  ch.query<CodeCount>(
    `SELECT account_id, ${perTrunk ? 'trunk_id, ' : ''}hour, sip_code AS code, sum(failed) AS failed FROM ${table}
     GROUP BY account_id, ${perTrunk ? 'trunk_id, ' : ''}hour, code HAVING failed != 0
     ORDER BY account_id, ${perTrunk ? 'trunk_id, ' : ''}hour, code`,
  );

async function expectTablesEqualRecords(ch: ClickHouseExecutor): Promise<void> {
  for (const [table, perTrunk] of [
    ['call_failure_codes_hourly', true],
    ['account_failure_codes_hourly', false],
  ] as const) {
    const expected = await fromRecords(ch, perTrunk);
    expect(expected.length).toBeGreaterThan(50);
    expect(await fromTable(ch, table, perTrunk)).toEqual(expected);
  }
}

const failedTotal = async (ch: ClickHouseExecutor) =>
  Number((await ch.query<{ n: number }>('SELECT sum(failed) AS n FROM account_failure_codes_hourly'))[0].n);

describe('failed calls by SIP code (migration 7)', () => {
  let ch: ClickHouseExecutor;

  beforeAll(async () => {
    ch = await createClickHouse({ url: null, dataDir: join(root, 'ch'), migrations: [] });
  });
  afterAll(() => ch?.close());

  it('backfills both tables from the stored calls when the migration meets them', async () => {
    await runMigrations(
      ch,
      CLICKHOUSE_MIGRATIONS.filter((m) => m.version < 7),
    );
    await insertCalls(ch, 0, 1500, 1, 1);
    // A later version of calls 300..599 stored before the migration: the failed ones change code or stop failing.
    await insertCalls(ch, 300, 600, 1, -1);
    await insertCalls(ch, 300, 600, 2, 1, 1);
    expect(await runMigrations(ch, CLICKHOUSE_MIGRATIONS)).toEqual([7, 8, 9]);
    await expectTablesEqualRecords(ch);
    expect(await failedTotal(ch)).toBe(500);
  });

  it('follows new calls and retracted versions through the views', async () => {
    await insertCalls(ch, 1500, 3000, 1, 1);
    await insertCalls(ch, 1000, 1200, 1, -1);
    // Calls 1000..1199 again: the same ones fail, with other codes.
    await insertCalls(ch, 1000, 1200, 2, 1, 3);
    await expectTablesEqualRecords(ch);
    expect(await failedTotal(ch)).toBe(1000);
    const none = await ch.query<{ n: number }>(
      'SELECT sum(failed) AS n FROM account_failure_codes_hourly WHERE sip_code = 0',
    );
    expect(Number(none[0].n)).toBeGreaterThan(50);
  });

  it('applies nothing, and counts nothing twice, when migrations run again', async () => {
    expect(await runMigrations(ch, CLICKHOUSE_MIGRATIONS)).toEqual([]);
    await expectTablesEqualRecords(ch);
    expect(await failedTotal(ch)).toBe(1000);
  });
});

describe('migration 7 over rows stored before migration 3 (no sip_code in their parts)', () => {
  let ch: ClickHouseExecutor;
  beforeAll(async () => {
    ch = await createClickHouse({ url: null, dataDir: join(root, 'ch-old'), migrations: [] });
  });
  afterAll(() => ch?.close());

  it('counts their failed calls under no code', async () => {
    await runMigrations(
      ch,
      CLICKHOUSE_MIGRATIONS.filter((m) => m.version < 3),
    );
    await ch.command(`INSERT INTO call_records (account_id, start_time, call_id, version, sign, trunk_id, status)
      SELECT 'acct_old', fromUnixTimestamp64Milli(toInt64(${T0} + k * 60_000), 'UTC'), concat('call_', toString(k)), 1, 1,
        'conn_old', ['connected', 'failed', 'disconnected'][1 + k % 3]
      FROM (SELECT number AS k FROM numbers(90))`);
    expect(await runMigrations(ch, CLICKHOUSE_MIGRATIONS)).toEqual([3, 4, 5, 6, 7, 8, 9]);
    const rows = await ch.query<{ sip_code: number; failed: number | string }>(
      'SELECT sip_code, sum(failed) AS failed FROM account_failure_codes_hourly GROUP BY sip_code',
    );
    expect(rows.map((r) => [Number(r.sip_code), Number(r.failed)])).toEqual([[0, 30]]);
  });
});
