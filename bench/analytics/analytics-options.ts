import { parseArgs } from 'node:util';

export interface AnalyticsBenchOptions {
  calls: number;
  days: number;
  trunks: number;
  seed: number;
  batchRows: number;
  shortSipTrace: boolean;
  warmup: number;
  runs: number;
  rawRuns: number;
  pgRuns: number;
  pages: number;
  walkPages: number;
  pageSize: number;
  settleSeconds: number;
  postgres: boolean;
  pgWorkMem: string;
  json: boolean;
  databaseUrl: string;
}

const USAGE = `usage: node dist/bench/analytics.bench.js [options]
  --calls N          call records to load (10000000)
  --days N           spread over the last N days (30)
  --trunks N         trunks (50)
  --seed N           generator seed (42)
  --batch N          rows per INSERT (50000; 100k rows of ~4.6 kB JSON come close to V8's 512 MB string limit)
  --short-sip-trace  keep only each sip_trace's first line (faster load; said so in the output)
  --warmup N         discarded requests before each measured series (5)
  --runs N           measured /v1/analytics/overview requests per granularity (50)
  --raw-runs N       measured raw-row computations per granularity (10)
  --pg-runs N        measured PostgreSQL computations per granularity (5)
  --pages N          cursor page to reach in GET /v1/calls (1000)
  --walk-pages N     pages walked by next_cursor, each timed (all --pages); past them, page N's cursor is
                     made from the last row of the offset page before it (each page also counts the total)
  --page-size N      limit of each page (100)
  --settle N         seconds to wait at most for background merges after the load (600)
  --pg-work-mem S    work_mem of the PostgreSQL session (256MB)
  --no-postgres      skip the PostgreSQL baseline
  --json             print machine-readable JSON instead of the table
env: BENCH_DATABASE_URL (postgres://postgres@127.0.0.1:5432/postgres)`;

export function parseAnalyticsOptions(argv: string[], env: NodeJS.ProcessEnv = process.env): AnalyticsBenchOptions {
  const names = [
    'calls',
    'days',
    'trunks',
    'seed',
    'batch',
    'warmup',
    'runs',
    'raw-runs',
    'pg-runs',
    'pages',
    'walk-pages',
    'page-size',
    'settle',
    'pg-work-mem',
  ];
  const { values } = parseArgs({
    args: argv,
    options: {
      ...Object.fromEntries(names.map((name) => [name, { type: 'string' as const }])),
      'short-sip-trace': { type: 'boolean' },
      'no-postgres': { type: 'boolean' },
      json: { type: 'boolean' },
      help: { type: 'boolean' },
    },
  });
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    process.exit(0);
  }
  const text = values as Record<string, string | boolean | undefined>;
  const int = (name: string, fallback: number, min = 1) =>
    integer(name, text[name] as string | undefined, fallback, min);
  const workMem = (text['pg-work-mem'] as string | undefined) ?? '256MB';
  if (!/^\d+(kB|MB|GB)$/.test(workMem)) throw new Error('--pg-work-mem must look like 256MB');
  return {
    calls: int('calls', 10_000_000),
    days: int('days', 30),
    trunks: int('trunks', 50),
    seed: int('seed', 42, 0),
    batchRows: int('batch', 50_000),
    shortSipTrace: values['short-sip-trace'] === true,
    warmup: int('warmup', 5, 0),
    runs: int('runs', 50),
    rawRuns: int('raw-runs', 10),
    pgRuns: int('pg-runs', 5),
    pages: int('pages', 1000),
    walkPages: int('walk-pages', int('pages', 1000)),
    pageSize: int('page-size', 100),
    settleSeconds: int('settle', 600, 0),
    postgres: values['no-postgres'] !== true,
    pgWorkMem: workMem,
    json: values.json === true,
    databaseUrl: env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
  };
}

function integer(name: string, raw: string | undefined, fallback: number, min: number): number {
  if (raw === undefined) return fallback;
  const value = Number(raw.replace(/[_,]/g, ''));
  if (!Number.isSafeInteger(value) || value < min) throw new Error(`--${name} must be an integer >= ${min}`);
  return value;
}
