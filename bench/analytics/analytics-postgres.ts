import { spawn } from 'node:child_process';
import { Client } from 'pg';
import type { Headline, TimedRuns } from './analytics-messages';
import { PG_COLUMNS, pgCodecs, pgCreateIndex, pgCreateTable, pgGroups, pgTotals } from './analytics-sql';
import { timeSequential } from './analytics-timing';

export interface PostgresLoad {
  rows: number;
  copyMs: number;
  indexMs: number;
  analyzeMs: number;
  tableBytes: number;
  settings: Record<string, string>;
}

/**
 * The same rows into a throwaway schema: psql's \copy streams the CSV file from this side
 * (server-side COPY could not read the bench's private temp dir), then the index the overview's
 * range filter can use, then VACUUM ANALYZE (statistics, visibility map).
 */
export async function loadPostgres(url: string, schema: string, csvPath: string): Promise<PostgresLoad> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(`CREATE SCHEMA "${schema}"`);
    await client.query(pgCreateTable(schema));
    const copyStarted = performance.now();
    await psql(
      url,
      `\\copy "${schema}".call_records (${PG_COLUMNS.join(', ')}) FROM '${csvPath.replace(/'/g, "''")}' WITH (FORMAT csv, NULL '\\N')`,
    );
    const copyMs = performance.now() - copyStarted;
    const indexStarted = performance.now();
    await client.query(pgCreateIndex(schema));
    const indexMs = performance.now() - indexStarted;
    const analyzeStarted = performance.now();
    await client.query(`VACUUM ANALYZE "${schema}".call_records`);
    const analyzeMs = performance.now() - analyzeStarted;
    const { rows } = await client.query<{ rows: string; bytes: string }>(
      `SELECT count(*) AS rows, pg_total_relation_size('"${schema}".call_records') AS bytes FROM "${schema}".call_records`,
    );
    return {
      rows: Number(rows[0].rows),
      copyMs,
      indexMs,
      analyzeMs,
      tableBytes: Number(rows[0].bytes),
      settings: await settingsOf(client),
    };
  } finally {
    await client.end();
  }
}

async function settingsOf(client: Client): Promise<Record<string, string>> {
  const names = ['server_version', 'shared_buffers', 'work_mem', 'max_parallel_workers_per_gather', 'jit'];
  const { rows } = await client.query<{ name: string; setting: string }>(
    'SELECT name, current_setting(name) AS setting FROM pg_settings WHERE name = ANY($1)',
    [names],
  );
  return Object.fromEntries(rows.map((r) => [r.name, r.setting]));
}

function psql(url: string, command: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn('psql', ['-X', '-q', '-v', 'ON_ERROR_STOP=1', '-d', url, '-c', command], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`psql exited with ${code}: ${stderr.trim()}`)),
    );
  });
}

export interface PostgresRequest {
  url: string;
  schema: string;
  accountId: string;
  from: Date;
  to: Date;
  hourly: boolean;
  warmup: number;
  runs: number;
  workMem: string;
}

/** The overview's three statements, one after another on one session, `runs` times. */
export async function timePostgresOverview(r: PostgresRequest): Promise<TimedRuns> {
  const client = new Client({ connectionString: r.url });
  await client.connect();
  try {
    await client.query(`SET work_mem = '${r.workMem}'`);
    const params = [r.accountId, r.from, r.to];
    let headline: Headline | null = null;
    const samplesMs = await timeSequential(r.warmup, r.runs, async () => {
      const totals = await client.query<{ calls: string; connected: string; p95: number; p99: number }>(
        pgTotals(r.schema),
        params,
      );
      await client.query(pgCodecs(r.schema), params);
      const groups = await client.query<{ all_trunks: number }>(pgGroups(r.schema, r.hourly), params);
      const trunks = groups.rows.filter((g) => Number(g.all_trunks) === 0).length;
      const t = totals.rows[0];
      headline = {
        totalCalls: Number(t.calls),
        connectedCalls: Number(t.connected),
        p95: Number(t.p95),
        p99: Number(t.p99),
        trunks,
        buckets: groups.rows.length - trunks,
      };
    });
    return { samplesMs, headline: headline! };
  } finally {
    await client.end();
  }
}
