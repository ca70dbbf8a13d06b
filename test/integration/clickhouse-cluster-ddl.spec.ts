import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClickHouse } from '../../src/infrastructure/clickhouse/clickhouse.factory';
import type { ClickHouseExecutor, QueryParams } from '../../src/infrastructure/clickhouse/clickhouse.port';
import {
  ClusterDdlError,
  clusterMigrationStatements,
  ClusterSchema,
  clusterStatements,
} from '../../src/infrastructure/clickhouse/cluster-ddl';
import { runMigrations } from '../../src/infrastructure/clickhouse/migrations';
import { CLICKHOUSE_MIGRATIONS } from '../../src/infrastructure/clickhouse/migrations/index';

const CLUSTER = 'trunkline';
const flat = (sql: string): string => sql.replace(/\s+/g, ' ').trim();
const generated = (): string[] => clusterMigrationStatements(CLICKHOUSE_MIGRATIONS, CLUSTER).flat().map(flat);
const originals = (): string[] => CLICKHOUSE_MIGRATIONS.flatMap((m) => m.sql).map(flat);
const tablesOf = (statements: string[]) =>
  statements.flatMap((s) => {
    const m = /^CREATE TABLE IF NOT EXISTS (\w+) \(.*\) ENGINE = (\w+)(\([^)]*\))?.*ORDER BY \(?([^,)]+)/.exec(s);
    return m ? [{ table: m[1], engine: m[2], args: m[3] ?? '', firstKey: m[4].trim() }] : [];
  });

/** The single-node reading of cluster DDL: what chDB (no Keeper, no clusters) can run. */
function singleNode(statement: string): string | null {
  if (/ENGINE = Distributed\(/.test(statement) || /^INSERT /.test(statement)) return null;
  // An ALTER of a table's Distributed part (the one not named _local), left out above.
  if (/^ALTER TABLE \w+ ON CLUSTER/.test(statement) && !/^ALTER TABLE \w+_local /.test(statement)) return null;
  return statement
    .replace(/ ON CLUSTER '\w+'/, '')
    .replace(/Replicated(\w*MergeTree)\('[^']*', '\{replica\}'(, )?/, '$1(');
}

describe('ClickHouse cluster DDL (CLICKHOUSE_CLUSTER)', () => {
  it('turns every table of the migrations into a replicated local table and a distributed one, sharded by its first sort column', () => {
    const statements = generated();
    for (const { table, engine, args, firstKey } of tablesOf(originals())) {
      const local = statements.find((s) =>
        s.startsWith(`CREATE TABLE IF NOT EXISTS ${table}_local ON CLUSTER '${CLUSTER}' (`),
      );
      const inner = args.replace(/^\(|\)$/g, '');
      const replicated = `ENGINE = Replicated${engine}('/clickhouse/tables/{shard}/{database}/${table}_local', '{replica}'${inner ? `, ${inner}` : ''})`;
      expect({ table, local: local?.includes(replicated) }).toEqual({ table, local: true });
      expect(statements).toContain(
        `CREATE TABLE IF NOT EXISTS ${table} ON CLUSTER '${CLUSTER}' AS ${table}_local ENGINE = Distributed('${CLUSTER}', currentDatabase(), '${table}_local', cityHash64(${firstKey}))`,
      );
    }
    expect(tablesOf(originals()).map((t) => [t.table, t.firstKey])).toEqual(
      expect.arrayContaining([
        ['call_records', 'account_id'],
        ['call_stats_hourly', 'account_id'],
        ['trunk_dimension', 'account_id'],
        ['projection_checkpoints', 'name'],
      ]),
    );
  });

  it("keeps each table's columns, sort key and partitioning unchanged in its local part", () => {
    const byTable = new Map(generated().map((s) => [/^CREATE TABLE IF NOT EXISTS (\w+)_local /.exec(s)?.[1], s]));
    for (const original of originals().filter((s) => s.startsWith('CREATE TABLE'))) {
      const table = /^CREATE TABLE IF NOT EXISTS (\w+)/.exec(original)![1];
      const local = byTable.get(table)!;
      const columns = (s: string) => s.slice(s.indexOf('('), s.indexOf(') ENGINE') + 1);
      const after = (s: string) => s.slice(s.indexOf(') ENGINE')).replace(/^\) ENGINE = \w+(\([^)]*\))?/, '');
      expect(columns(local)).toBe(columns(original));
      expect(after(local).replace(/^\)/, '')).toBe(after(original));
    }
  });

  it('points materialized views from local sources to local targets, and runs everything ON CLUSTER', () => {
    const statements = generated();
    const shape = (pattern: RegExp) => (v: string) => pattern.exec(v)?.slice(1);
    const views = statements
      .filter((s) => s.startsWith('CREATE MATERIALIZED VIEW'))
      .map(shape(/VIEW IF NOT EXISTS (\w+) ON CLUSTER 'trunkline' TO (\w+) AS .* FROM (\w+)/));
    const expected = originals()
      .filter((s) => s.startsWith('CREATE MATERIALIZED VIEW'))
      .map(shape(/VIEW IF NOT EXISTS (\w+) TO (\w+) AS .* FROM (\w+)/))
      .map((v) => [v![0], `${v![1]}_local`, `${v![2]}_local`]);
    expect(expected).toEqual(
      expect.arrayContaining([['call_stats_hourly_mv', 'call_stats_hourly_local', 'call_records_local']]),
    );
    expect(views).toEqual(expected);
    expect(statements.filter((s) => !s.startsWith('INSERT ') && !s.includes(`ON CLUSTER '${CLUSTER}'`))).toEqual([]);
    expect(statements).toContain(`TRUNCATE TABLE IF EXISTS call_stats_daily_local ON CLUSTER '${CLUSTER}' SYNC`);
  });

  it('rewrites ALTER, DROP and plain views, and refuses what it cannot translate', () => {
    const schema = new ClusterSchema('c1');
    clusterStatements(
      'CREATE TABLE IF NOT EXISTS t (a String, b UInt8) ENGINE = MergeTree() ORDER BY (a, b) SETTINGS index_granularity = 1024',
      schema,
    );
    expect(clusterStatements('ALTER TABLE t ADD COLUMN IF NOT EXISTS c UInt8', schema)).toEqual([
      "ALTER TABLE t_local ON CLUSTER 'c1' ADD COLUMN IF NOT EXISTS c UInt8",
      "ALTER TABLE t ON CLUSTER 'c1' ADD COLUMN IF NOT EXISTS c UInt8",
    ]);
    expect(clusterStatements('ALTER TABLE t ADD INDEX ib b TYPE minmax GRANULARITY 1', schema)).toEqual([
      "ALTER TABLE t_local ON CLUSTER 'c1' ADD INDEX ib b TYPE minmax GRANULARITY 1",
    ]);
    expect(clusterStatements('CREATE VIEW IF NOT EXISTS v AS SELECT a FROM t', schema)).toEqual([
      "CREATE VIEW IF NOT EXISTS v ON CLUSTER 'c1' AS SELECT a FROM t",
    ]);
    expect(clusterStatements('DROP TABLE IF EXISTS t', schema)).toEqual([
      "DROP TABLE IF EXISTS t ON CLUSTER 'c1' SYNC",
      "DROP TABLE IF EXISTS t_local ON CLUSTER 'c1' SYNC",
    ]);
    for (const refused of [
      'CREATE TABLE IF NOT EXISTS m (a String) ENGINE = Memory',
      "CREATE TABLE IF NOT EXISTS r (a String) ENGINE = ReplicatedMergeTree('/p', 'r') ORDER BY a",
      'CREATE TABLE IF NOT EXISTS n (a String) ENGINE = MergeTree ORDER BY tuple()',
      'CREATE TABLE IF NOT EXISTS x_local (a String) ENGINE = MergeTree ORDER BY a',
      'CREATE MATERIALIZED VIEW IF NOT EXISTS mv ENGINE = MergeTree ORDER BY a AS SELECT a FROM t',
      'OPTIMIZE TABLE t FINAL',
    ]) {
      expect(() => clusterStatements(refused, new ClusterSchema('c1'))).toThrow(ClusterDdlError);
    }
  });

  it('has runMigrations issue the cluster statements, those of the migrations table first', async () => {
    const issued: string[] = [];
    const recorder: ClickHouseExecutor = {
      kind: 'server',
      command: async (sql: string, _params?: QueryParams) => void issued.push(flat(sql)),
      query: async <T>() => [] as T[],
      insert: async () => undefined,
      insertJsonEachRow: async () => undefined,
      exportToFile: async () => ({ bytes: 0 }),
      ping: async () => undefined,
      close: async () => undefined,
    };
    expect(await runMigrations(recorder, CLICKHOUSE_MIGRATIONS, undefined, { cluster: CLUSTER })).toEqual(
      CLICKHOUSE_MIGRATIONS.map((m) => m.version),
    );
    expect(
      issued.slice(0, 2).map((s) => /^CREATE TABLE IF NOT EXISTS (\w+) ON CLUSTER 'trunkline' (AS|\()/.exec(s)?.[1]),
    ).toEqual(['schema_migrations_local', 'schema_migrations']);
    // Then the checksum column for tables made before checksums, on the local table and the distributed one.
    expect(
      issued
        .slice(2, 4)
        .map((s) => /^ALTER TABLE (\w+) ON CLUSTER 'trunkline' ADD COLUMN IF NOT EXISTS checksum /.exec(s)?.[1]),
    ).toEqual(['schema_migrations_local', 'schema_migrations']);
    expect(issued.filter((s) => !s.startsWith('INSERT INTO schema_migrations')).slice(4)).toEqual(generated());
  });

  describe('on the embedded engine (single-node reading: no Keeper, no Distributed)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'trunkline-cluster-ddl-'));
    let clickhouse: ClickHouseExecutor;
    beforeAll(async () => {
      clickhouse = await createClickHouse({ url: null, dataDir: dir, migrations: [] });
    });
    afterAll(async () => {
      await clickhouse.close();
      rmSync(dir, { recursive: true, force: true });
    });

    it('runs the local tables and views, and the views cascade rows into the local aggregates', async () => {
      for (const statement of generated().map(singleNode)) if (statement) await clickhouse.command(statement);
      const row = {
        account_id: 'acct_1',
        start_time: '2026-11-21T10:15:00.000Z',
        call_id: 'call_1',
        version: 1,
        sign: 1,
        trunk_id: 'conn_1',
        provider: 'custom',
        direction: 'inbound',
        status: 'connected',
        from_number: '+1',
        to_number: '+2',
        end_time: null,
        duration_seconds: 30,
        carrier_lag_ms: 10,
        ai_latency_ms: 20,
        gateway_processing_ms: 5,
        total_latency_ms: 35,
        latency_bin: 35,
        packet_loss_percent: null,
        jitter_ms: null,
        codec_used: 'G711',
        codec_group: 'G711',
        disconnect_reason: '',
        turns: '[]',
        sip_trace: '',
        ingested_at: '2026-11-21T10:16:00.000Z',
      };
      await clickhouse.insert('call_records_local', [
        row,
        { ...row, sign: -1 },
        { ...row, version: 2, status: 'failed' },
      ]);
      const hourly = await clickhouse.query<{ calls: number; connected: number; failed: number }>(
        'SELECT sum(calls) AS calls, sum(connected) AS connected, sum(failed) AS failed FROM call_stats_hourly_local',
      );
      const daily = await clickhouse.query<{ calls: number }>('SELECT sum(calls) AS calls FROM call_stats_daily_local');
      expect({
        hourly: hourly.map((r) => [Number(r.calls), Number(r.connected), Number(r.failed)]),
        daily: Number(daily[0].calls),
      }).toEqual({ hourly: [[1, 0, 1]], daily: 1 });
    });
  });
});
