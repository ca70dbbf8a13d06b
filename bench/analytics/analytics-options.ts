import { parseBenchArgs, storeUrls } from '../lib/options';

const COMMAND = {
  script: 'analytics/analytics.bench.js',
  options: {
    calls: { type: 'integer', default: 10_000_000, help: 'call records to load' },
    days: { type: 'integer', default: 30, help: 'spread over the last N days' },
    trunks: { type: 'integer', default: 50, help: 'trunks' },
    seed: { type: 'integer', default: 42, min: 0, help: 'generator seed' },
    batch: {
      type: 'integer',
      default: 10_000,
      field: 'batchRows',
      help: 'rows per INSERT (the embedded engine is capped at 768 MiB, docs/memory.md: 50k-row INSERTs exceed it)',
    },
    'short-sip-trace': {
      type: 'flag',
      help: "keep only each sip_trace's first line (faster load; said so in the output)",
    },
    warmup: { type: 'integer', default: 5, min: 0, help: 'discarded requests before each measured series' },
    runs: { type: 'integer', default: 50, help: 'measured /v1/analytics/overview requests per granularity' },
    'cold-runs': {
      type: 'integer',
      default: 20,
      help: 'measured overview requests per granularity whose whole hours are not kept yet (a new range each)',
    },
    'concurrency-runs': {
      type: 'integer',
      default: 10,
      help: 'measured /v1/analytics/concurrency requests (account, then one trunk), daily buckets',
    },
    'raw-runs': { type: 'integer', default: 10, help: 'measured raw-row computations per granularity' },
    'pg-runs': { type: 'integer', default: 5, help: 'measured PostgreSQL computations per granularity' },
    pages: { type: 'integer', default: 1000, help: 'cursor page to reach in GET /v1/calls' },
    'walk-pages': {
      type: 'integer',
      default: null,
      help:
        "pages walked by next_cursor, each timed (all --pages); past them, page N's cursor is made" +
        ' from the last row of the offset page before it',
    },
    'page-size': { type: 'integer', default: 100, help: 'limit of each page' },
    settle: {
      type: 'integer',
      default: 600,
      min: 0,
      field: 'settleSeconds',
      help: 'seconds to wait at most for background merges after the load',
    },
    'pg-work-mem': {
      type: 'string',
      default: '256MB',
      pattern: /^\d+(kB|MB|GB)$/,
      help: 'work_mem of the PostgreSQL session',
    },
    'no-postgres': { type: 'flag', help: 'skip the PostgreSQL baseline' },
  },
  notes: ['env: BENCH_DATABASE_URL (postgres://postgres@127.0.0.1:5432/postgres)'],
} as const;

export type AnalyticsBenchOptions = ReturnType<typeof parseAnalyticsOptions>;

export function parseAnalyticsOptions(argv: string[]) {
  const { walkPages, noPostgres, ...args } = parseBenchArgs(argv, COMMAND);
  return {
    ...args,
    walkPages: walkPages ?? args.pages,
    postgres: !noPostgres,
    databaseUrl: storeUrls().databaseUrl,
  };
}
