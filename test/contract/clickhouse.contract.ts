import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type ClickHouseExecutor,
  ClickHouseQueryError,
  ClickHouseUnavailableError,
} from '../../src/infrastructure/clickhouse/clickhouse.port';
import {
  type ClickHouseMigration,
  migrationChecksum,
  runMigrations,
} from '../../src/infrastructure/clickhouse/migrations';

export const CH_CASE = {
  roundTrip: 'runs a command and reads its rows back',
  paramTypes: 'binds parameters of every supported type',
  noInjection: 'binds hostile strings as data, never as SQL',
  manyRows: 'inserts many rows in one call',
  jsonEachRowText: 'inserts rows given as JSONEachRow text as they are, and refuses a bad row or table',
  deduplicatedRetry:
    'stores an INSERT that failed in a view, sent again with its deduplication token, once in the table and in every view',
  numbers: 'returns 64-bit integers, decimals and floats as JSON numbers',
  dates: 'returns times as ISO 8601 UTC and takes Date objects in rows and parameters',
  queryError: 'rejects a failing statement with ClickHouseQueryError and keeps working',
  badInput: 'rejects bad table names and parameter values before running anything',
  migrations: 'applies migrations once, in order, and is idempotent',
  replacing: 'deduplicates a ReplacingMergeTree with FINAL',
  quantiles: 'aggregates quantileTiming states through a materialized view',
  sumMap: 'merges sumMap states with negative Int64 counts',
  exportToFile: 'writes a result to a file in CSV, NDJSON and Parquet, and leaves no file when it fails',
} as const;

export type ClickHouseCase = (typeof CH_CASE)[keyof typeof CH_CASE];

export interface ClickHouseContractOptions {
  /** Case → written reason. A skipped case still shows up, with its reason, every run. */
  skip?: Partial<Record<ClickHouseCase, string>>;
}

/** A table name no other case or run uses, so a shared server needs no cleanup between runs. */
const tableName = (prefix: string): string => `${prefix}_${randomBytes(5).toString('hex')}`;

const HOSTILE = `it's "quoted"\\ \t tab\r\nnewline; DROP TABLE x; -- 😀 naïve עברית {x:String} ?`;

/**
 * The conformance suite every ClickHouseExecutor adapter runs. `open()` returns a new executor on
 * the same data; the suite closes what it opens. Cases create uniquely named tables and drop them.
 */
export function clickHouseContract(
  name: string,
  open: () => Promise<ClickHouseExecutor>,
  options: ClickHouseContractOptions = {},
): void {
  describe(`ClickHouse contract (${name})`, () => {
    let shared: ClickHouseExecutor | undefined;
    const ch = (): ClickHouseExecutor => shared ?? fail('the executor is not open');
    const created: string[] = [];
    const table = (prefix: string): string => {
      const t = tableName(prefix);
      created.push(t);
      return t;
    };

    beforeAll(async () => {
      shared = await open();
    });

    afterAll(async () => {
      for (const t of created.reverse()) await shared?.command(`DROP TABLE IF EXISTS ${t}`).catch(() => undefined);
      await shared?.close();
    });

    const test = (caseName: ClickHouseCase, body: () => Promise<void>, timeoutMs?: number): void => {
      const reason = options.skip?.[caseName];
      if (reason === undefined) it(caseName, body, timeoutMs);
      else
        it(`${caseName} [skipped: ${reason}]`, () =>
          console.warn(`[clickhouse contract: ${name}] skipped "${caseName}": ${reason}`));
    };

    test(CH_CASE.roundTrip, async () => {
      const t = table('round_trip');
      await ch().command(`CREATE TABLE IF NOT EXISTS ${t} (id UInt32, name String) ENGINE = MergeTree ORDER BY id`);
      expect(await ch().query(`SELECT * FROM ${t}`)).toEqual([]);
      await ch().command(`INSERT INTO ${t} VALUES ({id:UInt32}, {name:String}), (2, 'b')`, { id: 1, name: 'a' });
      expect(await ch().query(`SELECT id, name FROM ${t} ORDER BY id`)).toEqual([
        { id: 1, name: 'a' },
        { id: 2, name: 'b' },
      ]);
    });

    test(CH_CASE.paramTypes, async () => {
      const [row] = await ch().query(
        `SELECT {s:String} AS s, {i:Int32} AS i, {u:UInt64} AS u, {f:Float64} AS f, {b:Bool} AS b, {flag:UInt8} AS flag,
                {n:Nullable(String)} AS n, {t:DateTime64(3)} AS t, {sec:DateTime} AS sec, {day:Date} AS day,
                {sa:Array(String)} AS sa, {na:Array(Int64)} AS na, {empty:Array(String)} AS empty`,
        {
          s: HOSTILE,
          i: -7,
          u: 2 ** 53 - 1,
          f: 0.25,
          b: true,
          flag: false,
          n: null,
          t: new Date('2024-05-01T12:00:00.250Z'),
          sec: new Date('2024-05-01T12:00:00Z'),
          day: '2024-02-29',
          sa: [HOSTILE, "'", '\\', ''],
          na: [-1, 0, 2 ** 40],
          empty: [],
        },
      );
      expect(row).toEqual({
        s: HOSTILE,
        i: -7,
        u: 2 ** 53 - 1,
        f: 0.25,
        b: true,
        flag: 0,
        n: null,
        t: '2024-05-01T12:00:00.250Z',
        sec: '2024-05-01T12:00:00Z',
        day: '2024-02-29',
        sa: [HOSTILE, "'", '\\', ''],
        na: [-1, 0, 2 ** 40],
        empty: [],
      });
    });

    test(CH_CASE.noInjection, async () => {
      const t = table('injection');
      await ch().command(`CREATE TABLE IF NOT EXISTS ${t} (name String) ENGINE = MergeTree ORDER BY name`);
      await ch().insert(t, [{ name: 'alice' }, { name: HOSTILE }]);
      for (const probe of ["' OR 1=1 --", "alice' --", `x'); DROP TABLE ${t}; --`, '{name:String}']) {
        expect(await ch().query(`SELECT count() AS c FROM ${t} WHERE name = {name:String}`, { name: probe })).toEqual([
          { c: 0 },
        ]);
      }
      expect(await ch().query(`SELECT name FROM ${t} WHERE name = {name:String}`, { name: HOSTILE })).toEqual([
        { name: HOSTILE },
      ]);
      expect(
        await ch().query(`SELECT count() AS c FROM ${t} WHERE has({names:Array(String)}, name)`, {
          names: [HOSTILE, "' OR ''='"],
        }),
      ).toEqual([{ c: 1 }]);
    });

    test(CH_CASE.manyRows, async () => {
      const t = table('many_rows');
      await ch().command(
        `CREATE TABLE IF NOT EXISTS ${t} (id UInt32, tags Array(String), note String) ENGINE = MergeTree ORDER BY id`,
      );
      const rows = Array.from({ length: 5000 }, (_, id) => ({
        id,
        tags: [`t${id % 7}`, HOSTILE],
        note: `${HOSTILE} ${id}`,
      }));
      await ch().insert(t, rows);
      expect(
        await ch().query(
          `SELECT count() AS c, sum(id) AS s, countIf(note = concat({h:String}, ' 42')) AS n FROM ${t}`,
          { h: HOSTILE },
        ),
      ).toEqual([{ c: 5000, s: (4999 * 5000) / 2, n: 1 }]);
    });

    test(CH_CASE.jsonEachRowText, async () => {
      const t = table('text_rows');
      await ch().command(
        `CREATE TABLE IF NOT EXISTS ${t} (id UInt32, note String, at DateTime64(3, 'UTC'), n Nullable(UInt32)) ENGINE = MergeTree ORDER BY id`,
      );
      const rows = [
        { id: 1, note: HOSTILE, at: '2024-05-01 12:00:00.250', n: null },
        { id: 2, note: '', at: '2024-05-01 12:00:00.000', n: 7 },
      ];
      await ch().insertJsonEachRow(t, rows.map((row) => `${JSON.stringify(row)}\n`).join(''));
      await ch().insertJsonEachRow(t, '');
      expect(await ch().query(`SELECT id, note, at, n FROM ${t} ORDER BY id`)).toEqual([
        { id: 1, note: HOSTILE, at: '2024-05-01T12:00:00.250Z', n: null },
        { id: 2, note: '', at: '2024-05-01T12:00:00.000Z', n: 7 },
      ]);
      await expect(ch().insertJsonEachRow(t, '{"id":3,"unknown_column":1}\n')).rejects.toBeInstanceOf(
        ClickHouseQueryError,
      );
      await expect(ch().insertJsonEachRow(t, '{"id":3,"note":"a"}\n{"id":"x"}\n')).rejects.toBeInstanceOf(
        ClickHouseQueryError,
      );
      await expect(ch().insertJsonEachRow(`${t}; DROP TABLE x`, '{"id":3}\n')).rejects.toBeInstanceOf(
        ClickHouseQueryError,
      );
      expect(await ch().query(`SELECT count() AS c FROM ${t}`)).toEqual([{ c: 2 }]);
    });

    test(CH_CASE.deduplicatedRetry, async () => {
      const [raw, flag, firstCounts, lastCounts] = ['dedup_raw', 'dedup_flag', 'dedup_first', 'dedup_last'].map(table);
      const window = 'SETTINGS non_replicated_deduplication_window = 100';
      await ch().command(`CREATE TABLE ${raw} (id String, n Int64) ENGINE = MergeTree ORDER BY id ${window}`);
      await ch().command(`CREATE TABLE ${flag} (x UInt8) ENGINE = MergeTree ORDER BY x`);
      for (const counts of [firstCounts, lastCounts])
        await ch().command(`CREATE TABLE ${counts} (n Int64) ENGINE = SummingMergeTree ORDER BY tuple() ${window}`);
      // One view counts the rows; the other fails while the flag table holds a row, with the code of
      // the engine's memory cap, after the rows were stored.
      await ch().command(`CREATE MATERIALIZED VIEW ${firstCounts}_mv TO ${firstCounts} AS SELECT n FROM ${raw}`);
      await ch().command(
        `CREATE MATERIALIZED VIEW ${lastCounts}_mv TO ${lastCounts} AS
         SELECT n + throwIf((SELECT count() FROM ${flag}) > 0, 'refused', toInt32(241)) * 0 AS n FROM ${raw}
         SETTINGS allow_custom_error_code_in_throwif = 1`,
      );
      created.push(`${firstCounts}_mv`, `${lastCounts}_mv`);
      const text = '{"id":"a","n":1}\n{"id":"b","n":2}\n';
      const counts = async () =>
        (
          await ch().query(
            `SELECT (SELECT sum(n) FROM ${raw}) AS raw, (SELECT sum(n) FROM ${firstCounts}) AS first, (SELECT sum(n) FROM ${lastCounts}) AS last`,
          )
        )[0];
      await ch().command(`INSERT INTO ${flag} VALUES (1)`);
      await expect(ch().insertJsonEachRow(raw, text, { deduplicationToken: 'batch-1' })).rejects.toBeInstanceOf(
        ClickHouseUnavailableError,
      );
      expect(await counts()).toEqual({ raw: 3, first: 3, last: 0 });
      await ch().command(`TRUNCATE TABLE ${flag}`);
      await ch().insertJsonEachRow(raw, text, { deduplicationToken: 'batch-1' });
      await ch().insertJsonEachRow(raw, text, { deduplicationToken: 'batch-1' });
      expect(await counts()).toEqual({ raw: 3, first: 3, last: 3 });
      // The same rows under a new token are a new INSERT.
      await ch().insertJsonEachRow(raw, text, { deduplicationToken: 'batch-2' });
      expect(await counts()).toEqual({ raw: 6, first: 6, last: 6 });
      for (const token of ["x'; DROP TABLE t; --", '', 'é', 'a'.repeat(129)])
        await expect(ch().insertJsonEachRow(raw, text, { deduplicationToken: token })).rejects.toBeInstanceOf(
          ClickHouseQueryError,
        );
      expect(await counts()).toEqual({ raw: 6, first: 6, last: 6 });
    });

    test(CH_CASE.numbers, async () => {
      const t = table('numbers');
      await ch().command(`CREATE TABLE IF NOT EXISTS ${t} (id UInt64, big Int64) ENGINE = MergeTree ORDER BY id`);
      await ch().insert(t, [{ id: 1, big: -9_007_199_254_740_993n }]);
      const [row] = await ch().query(
        `SELECT count() AS c, any(id) AS id, toInt64(-42) AS neg, toDecimal64(12.34, 2) AS dec, toFloat32(1.5) AS f,
                toString(any(big)) AS exact, 1 / 0 AS inf FROM ${t}`,
      );
      // 64-bit values are numbers (exact to 2^53); toString() is the way to read one exactly.
      expect(row).toEqual({ c: 1, id: 1, neg: -42, dec: 12.34, f: 1.5, exact: '-9007199254740993', inf: null });
    });

    test(CH_CASE.dates, async () => {
      const t = table('dates');
      await ch().command(
        `CREATE TABLE IF NOT EXISTS ${t} (n UInt8, ts DateTime64(3, 'UTC'), day Date) ENGINE = MergeTree ORDER BY ts`,
      );
      const base = Date.parse('2024-05-01T23:59:59.998Z');
      await ch().insert(
        t,
        [0, 1, 2].map((n) => ({ n, ts: new Date(base + n), day: '2024-05-01' })),
      );
      expect(
        await ch().query(
          `SELECT n, ts, day, toDate(ts) AS utc_day FROM ${t} WHERE ts >= {from:DateTime64(3)} ORDER BY n`,
          { from: new Date(base + 1) },
        ),
      ).toEqual([
        { n: 1, ts: '2024-05-01T23:59:59.999Z', day: '2024-05-01', utc_day: '2024-05-01' },
        { n: 2, ts: '2024-05-02T00:00:00.000Z', day: '2024-05-01', utc_day: '2024-05-02' },
      ]);
    });

    test(CH_CASE.queryError, async () => {
      await expect(ch().query('SELECT * FROM no_such_table_anywhere')).rejects.toMatchObject({
        name: 'ClickHouseQueryError',
        clickhouseCode: 60,
      });
      await expect(ch().query('SELEC 1')).rejects.toBeInstanceOf(ClickHouseQueryError);
      await expect(ch().query('SELECT {x:UInt8} AS x', { x: 'not a number' })).rejects.toBeInstanceOf(
        ClickHouseQueryError,
      );
      const t = table('bad_rows');
      await ch().command(`CREATE TABLE IF NOT EXISTS ${t} (id UInt32) ENGINE = MergeTree ORDER BY id`);
      await expect(ch().insert(t, [{ id: 'x' }])).rejects.toBeInstanceOf(ClickHouseQueryError);
      await expect(ch().insert(t, [{ id: 1, unknown_column: 1 }])).rejects.toBeInstanceOf(ClickHouseQueryError);
      const after = await Promise.all([ch().query('SELECT 1 AS one'), ch().query(`SELECT count() AS c FROM ${t}`)]);
      expect(after).toEqual([[{ one: 1 }], [{ c: 0 }]]);
    });

    test(CH_CASE.badInput, async () => {
      await expect(ch().insert('calls; DROP TABLE x', [{ a: 1 }])).rejects.toBeInstanceOf(ClickHouseQueryError);
      await expect(ch().insert('Calls', [{ a: 1 }])).rejects.toBeInstanceOf(ClickHouseQueryError);
      await expect(ch().query('SELECT 1', { 'a b': 1 })).rejects.toBeInstanceOf(ClickHouseQueryError);
      await expect(ch().query('SELECT {n:Int64}', { n: 2 ** 60 })).rejects.toBeInstanceOf(ClickHouseQueryError);
      await expect(ch().query('SELECT {n:Float64}', { n: Number.NaN })).rejects.toBeInstanceOf(ClickHouseQueryError);
      await expect(ch().query('SELECT {t:DateTime64(3)}', { t: new Date('nope') })).rejects.toBeInstanceOf(
        ClickHouseQueryError,
      );
      expect(await ch().query('SELECT 1 AS ok')).toEqual([{ ok: 1 }]);
    });

    test(CH_CASE.migrations, async () => {
      // Versions unique to this run: a server's schema_migrations outlives the suite.
      const base = 1_000_000 + Math.floor(Math.random() * 1_000_000) * 10;
      const [a, b] = [table('mig_a'), table('mig_b')];
      const m1: ClickHouseMigration = {
        version: base + 1,
        name: 'first',
        sql: [`CREATE TABLE IF NOT EXISTS ${a} (id UInt32) ENGINE = MergeTree ORDER BY id`],
      };
      const m2: ClickHouseMigration = {
        version: base + 2,
        name: 'second',
        sql: [`ALTER TABLE ${a} ADD COLUMN IF NOT EXISTS note String`, `CREATE TABLE IF NOT EXISTS ${b} AS ${a}`],
      };
      expect(await runMigrations(ch(), [m2, m1])).toEqual([base + 1, base + 2]);
      expect(await runMigrations(ch(), [m1, m2])).toEqual([]);
      await ch().insert(b, [{ id: 1, note: 'copied schema' }]);
      const recorded = await ch().query(
        'SELECT version, name FROM schema_migrations WHERE version > {base:UInt32} ORDER BY version',
        { base },
      );
      expect(recorded).toEqual([
        { version: base + 1, name: 'first' },
        { version: base + 2, name: 'second' },
      ]);
      await expect(runMigrations(ch(), [{ ...m1, name: 'renamed' }])).rejects.toThrow(/applied as "first"/);
      // Each applied migration's text is frozen by the checksum recorded with it: an edit refuses the start, naming it.
      const checksums = await ch().query<{ version: number; checksum: string }>(
        'SELECT version, checksum FROM schema_migrations WHERE version > {base:UInt32} ORDER BY version',
        { base },
      );
      expect(checksums.map((row) => row.checksum)).toEqual([migrationChecksum(m1), migrationChecksum(m2)]);
      const edited = { ...m2, sql: [...m2.sql, `ALTER TABLE ${a} ADD COLUMN IF NOT EXISTS extra String`] };
      await expect(runMigrations(ch(), [m1, edited])).rejects.toThrow(
        new RegExp(`migration ${base + 2} "second" was changed after it was applied`),
      );
      // One applied before checksums were recorded (an empty checksum) takes its text's checksum then.
      const m3: ClickHouseMigration = { version: base + 3, name: 'third', sql: [] };
      await ch().command(
        "INSERT INTO schema_migrations (version, name, applied_at) VALUES ({version:UInt32}, 'third', now64(3, 'UTC'))",
        { version: base + 3 },
      );
      expect(await runMigrations(ch(), [m1, m2, m3])).toEqual([]);
      await expect(runMigrations(ch(), [m1, m2, { ...m3, sql: ['SELECT 1'] }])).rejects.toThrow(/"third" was changed/);
    });

    test(CH_CASE.replacing, async () => {
      const t = table('replacing');
      await ch().command(
        `CREATE TABLE IF NOT EXISTS ${t} (id String, version UInt64, state String) ENGINE = ReplacingMergeTree(version) ORDER BY id`,
      );
      // Separate inserts make separate parts: the duplicates survive until a merge or FINAL.
      for (const version of [1, 3, 2])
        await ch().insert(t, [
          { id: 'a', version, state: `v${version}` },
          { id: 'b', version: 1, state: 'only' },
        ]);
      expect(await ch().query(`SELECT count() AS c FROM ${t}`)).toEqual([{ c: 6 }]);
      expect(await ch().query(`SELECT id, version, state FROM ${t} FINAL ORDER BY id`)).toEqual([
        { id: 'a', version: 3, state: 'v3' },
        { id: 'b', version: 1, state: 'only' },
      ]);
    });

    test(CH_CASE.quantiles, async () => {
      const [raw, agg, mv] = [table('calls_raw'), table('calls_hourly'), table('calls_hourly_mv')];
      await ch().command(
        `CREATE TABLE IF NOT EXISTS ${raw} (trunk_id String, ts DateTime64(3, 'UTC'), duration_ms UInt32) ENGINE = MergeTree ORDER BY (trunk_id, ts)`,
      );
      await ch().command(
        `CREATE TABLE IF NOT EXISTS ${agg} (trunk_id String, hour DateTime('UTC'), calls SimpleAggregateFunction(sum, UInt64),
           p50 AggregateFunction(quantileTiming(0.5), UInt32)) ENGINE = AggregatingMergeTree ORDER BY (trunk_id, hour)`,
      );
      await ch().command(
        `CREATE MATERIALIZED VIEW IF NOT EXISTS ${mv} TO ${agg} AS SELECT trunk_id, toStartOfHour(ts) AS hour, count() AS calls,
           quantileTimingState(0.5)(duration_ms) AS p50 FROM ${raw} GROUP BY trunk_id, hour`,
      );
      const at = (minute: number): Date => new Date(Date.UTC(2024, 4, 1, 10, minute));
      await ch().insert(
        raw,
        Array.from({ length: 50 }, (_, i) => ({ trunk_id: 'a', ts: at(i), duration_ms: i + 1 })),
      );
      await ch().insert(
        raw,
        Array.from({ length: 50 }, (_, i) => ({ trunk_id: 'a', ts: at(i), duration_ms: i + 51 })),
      );
      await ch().insert(raw, [{ trunk_id: 'b', ts: at(5), duration_ms: 700 }]);
      const merged = await ch().query(
        `SELECT trunk_id, hour, sum(calls) AS calls, quantileTimingMerge(0.5)(p50) AS p50 FROM ${agg} GROUP BY trunk_id, hour ORDER BY trunk_id`,
      );
      const direct = await ch().query(
        `SELECT trunk_id, toStartOfHour(ts) AS hour, count() AS calls, quantileTiming(0.5)(duration_ms) AS p50 FROM ${raw} GROUP BY trunk_id, hour ORDER BY trunk_id`,
      );
      expect(merged).toEqual(direct);
      // quantileTiming is exact at this size and takes the value at index ⌊0.5·n⌋ of 1..100.
      expect(merged).toEqual([
        { trunk_id: 'a', hour: '2024-05-01T10:00:00Z', calls: 100, p50: 51 },
        { trunk_id: 'b', hour: '2024-05-01T10:00:00Z', calls: 1, p50: 700 },
      ]);
    });

    test(CH_CASE.sumMap, async () => {
      const [raw, agg, mv] = [table('status_raw'), table('status_totals'), table('status_totals_mv')];
      await ch().command(
        `CREATE TABLE IF NOT EXISTS ${raw} (trunk_id String, codes Array(String), counts Array(Int64)) ENGINE = MergeTree ORDER BY trunk_id`,
      );
      await ch().command(
        `CREATE TABLE IF NOT EXISTS ${agg} (trunk_id String, by_code AggregateFunction(sumMap, Array(String), Array(Int64))) ENGINE = AggregatingMergeTree ORDER BY trunk_id`,
      );
      await ch().command(
        `CREATE MATERIALIZED VIEW IF NOT EXISTS ${mv} TO ${agg} AS SELECT trunk_id, sumMapState(codes, counts) AS by_code FROM ${raw} GROUP BY trunk_id`,
      );
      await ch().insert(raw, [{ trunk_id: 'a', codes: ['200', '486'], counts: [3, 1] }]);
      // Corrections arrive as negative counts; a code whose total reaches 0 drops out of the map.
      await ch().insert(raw, [
        { trunk_id: 'a', codes: ['486', '503'], counts: [-1, -2] },
        { trunk_id: 'a', codes: ['200'], counts: [5_000_000_000] },
      ]);
      const rows = await ch().query(
        `SELECT trunk_id, sumMapMerge(by_code) AS m, m.1 AS codes, m.2 AS counts FROM ${agg} GROUP BY trunk_id`,
      );
      expect(rows).toEqual([
        {
          trunk_id: 'a',
          m: [
            ['200', '503'],
            [5_000_000_003, -2],
          ],
          codes: ['200', '503'],
          counts: [5_000_000_003, -2],
        },
      ]);
    });

    test(CH_CASE.exportToFile, async () => {
      const t = table('export');
      await ch().command(
        `CREATE TABLE IF NOT EXISTS ${t} (id UInt32, name String, note Nullable(String), at DateTime64(3, 'UTC')) ENGINE = MergeTree ORDER BY id`,
      );
      await ch().insert(t, [
        { id: 1, name: HOSTILE, note: null, at: new Date('2024-05-01T12:00:00.250Z') },
        { id: 2, name: 'b', note: 'n', at: new Date('2024-05-02T00:00:00Z') },
        { id: 3, name: 'c', note: null, at: new Date('2024-05-03T00:00:00Z') },
      ]);
      const dir = mkdtempSync(join(tmpdir(), 'ch-export-'));
      try {
        const sql = `SELECT id, name, note, at FROM ${t} WHERE id <= {max:UInt32} ORDER BY id`;
        const expected = await ch().query(sql, { max: 2 });
        const ndjson = await ch().exportToFile(sql, { max: 2 }, 'JSONEachRow', join(dir, 'out.ndjson'));
        const text = readFileSync(join(dir, 'out.ndjson'), 'utf8');
        expect(ndjson.bytes).toBe(Buffer.byteLength(text));
        expect(
          text
            .trim()
            .split('\n')
            .map((line) => JSON.parse(line) as unknown),
        ).toEqual(expected);

        await ch().exportToFile(sql, { max: 2 }, 'CSVWithNames', join(dir, 'out.csv'));
        const csv = readFileSync(join(dir, 'out.csv'), 'utf8').trim().split('\n');
        expect(csv[0]).toBe('"id","name","note","at"');
        expect(csv[csv.length - 1]).toBe('2,"b","n","2024-05-02T00:00:00.000Z"');

        const parquet = await ch().exportToFile(sql, { max: 3 }, 'Parquet', join(dir, 'out.parquet'));
        const bytes = readFileSync(join(dir, 'out.parquet'));
        expect(parquet.bytes).toBe(bytes.length);
        // A Parquet file begins and ends with its magic number.
        expect([bytes.subarray(0, 4).toString(), bytes.subarray(-4).toString()]).toEqual(['PAR1', 'PAR1']);

        // Replaces what is there; a failing statement leaves neither the file nor a partial one.
        await ch().exportToFile(sql, { max: 1 }, 'JSONEachRow', join(dir, 'out.ndjson'));
        expect(readFileSync(join(dir, 'out.ndjson'), 'utf8').trim().split('\n')).toHaveLength(1);
        await expect(
          ch().exportToFile(`SELECT no_such_column FROM ${t}`, undefined, 'CSVWithNames', join(dir, 'bad.csv')),
        ).rejects.toBeInstanceOf(ClickHouseQueryError);
        expect(existsSync(join(dir, 'bad.csv'))).toBe(false);
        expect(readdirSync(dir).sort()).toEqual(['out.csv', 'out.ndjson', 'out.parquet']);
        expect(await ch().query('SELECT 1 AS one')).toEqual([{ one: 1 }]);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });

    it('skips only cases that exist', () => {
      const known = new Set<string>(Object.values(CH_CASE));
      expect(Object.keys(options.skip ?? {}).filter((c) => !known.has(c))).toEqual([]);
    });
  });
}

function fail(message: string): never {
  throw new Error(message);
}
