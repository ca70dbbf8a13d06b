import { progress, runBench } from './support/bench-main';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, totalmem, tmpdir } from 'node:os';
import { join } from 'node:path';
import { AnalyticsAppChild } from './support/analytics-child';
import type { AnalyticsReport, AppLoadFigures, Series } from './support/analytics-figures';
import { ApiClient, measurePages, overviewPath, timeOverview } from './support/analytics-http';
import type { ExportResult, LoadResult, SettleResult, StatementTime, TimedRuns } from './support/analytics-messages';
import { AnalyticsBenchOptions, parseAnalyticsOptions } from './support/analytics-options';
import { loadPostgres, timePostgresOverview } from './support/analytics-postgres';
import { formatAnalyticsReport } from './support/analytics-report';
import { Cleanups, dropSchema } from './support/cleanups';
import { getUntilOk } from './support/probe';

/*
 * GET /v1/analytics/overview over 30 days of calls, against two baselines computed in the same
 * run from the same rows: the raw rows in the same engine (call_records FINAL, exact quantiles)
 * and PostgreSQL (percentile_cont). Then the cost of a deep cursor page of GET /v1/calls.
 *
 * chDB allows one engine per process, so the app child owns it: the bulk load and the raw-row
 * baseline run in that child, through the app's executor, as bench-only IPC commands. The child
 * starts on a fresh data directory (embedded chDB, PGlite, in-memory read models), provisions the
 * account first, and the rows are generated for that account.
 */
const DAY_MS = 86_400_000;
const PAGE_RUNS = 10;
const APP_VARIABLES = [
  'ADMIN_API_KEY',
  'APP_ENV',
  'CLICKHOUSE_URL',
  'EVENT_STORE_URL',
  'EVENT_STORE_SCHEMA',
  'REDIS_URL',
  'REDIS_NAMESPACE',
  'TLS_MODE',
  'TLS_CERT_FILE',
  'TLS_KEY_FILE',
  'PORT',
  'HOST',
  'MASTER_KEY',
];

async function run(options: AnalyticsBenchOptions, cleanups: Cleanups): Promise<AnalyticsReport> {
  const dataDir = mkdtempSync(join(tmpdir(), 'trunkline-analytics-bench-'));
  cleanups.add('remove data dir', async () => rmSync(dataDir, { recursive: true, force: true }));
  const app = await AnalyticsAppChild.start(
    join(__dirname, 'support', 'analytics-app-server.js'),
    appEnvironment(dataDir),
    cleanups,
  );
  const { accountId, accountKey, cert, port } = app.ready;
  const origin = `https://127.0.0.1:${port}`;
  await getUntilOk(`${origin}/v1/calls?limit=1`, cert, { authorization: `Bearer ${accountKey}` });

  const to = new Date();
  const from = new Date(to.getTime() - options.days * DAY_MS);
  progress(`loading ${options.calls.toLocaleString('en-US')} calls into chDB`);
  const loaded = await app.call<'load', LoadResult>('load', {
    accountId,
    calls: options.calls,
    trunks: options.trunks,
    seed: options.seed,
    fromMs: from.getTime(),
    toMs: to.getTime(),
    batchRows: options.batchRows,
    shortSipTrace: options.shortSipTrace,
  });
  progress(`loaded in ${(loaded.ms / 1000).toFixed(1)} s; waiting for background merges`);
  const settled = await app.call<'settle', SettleResult>('settle', { timeoutMs: options.settleSeconds * 1000 });
  const load: AppLoadFigures = {
    ...loaded,
    batchRows: options.batchRows,
    shortSipTrace: options.shortSipTrace,
    settleMs: settled.ms,
    settled: settled.settled,
    parts: settled.parts,
  };

  const loadBeforeMeasuring = loadavg()[0];
  const series: Series[] = [];
  const api = new ApiClient(origin, cert, accountKey);
  cleanups.add('close HTTP client', () => api.close());
  for (const hourly of [true, false]) {
    progress(`app overview, ${granularity(hourly)}`);
    const timed = await timeOverview(api, overviewPath(from, to, hourly), options.warmup, options.runs);
    series.push(named('app', hourly, `app over HTTPS (aggregates + raw edges), ${granularity(hourly)}`, timed));
  }
  for (const hourly of [true, false]) {
    progress(`raw rows in chDB, ${granularity(hourly)}`);
    const timed = await app.call<'raw', TimedRuns>('raw', {
      accountId,
      fromMs: from.getTime(),
      toMs: to.getTime() + 1,
      hourly,
      warmup: 1,
      runs: options.rawRuns,
    });
    series.push(named('raw', hourly, `same engine, raw rows (call_records FINAL), ${granularity(hourly)}`, timed));
  }
  progress(
    `GET /v1/calls: walking ${Math.min(options.walkPages, options.pages)} pages by next_cursor, then page ${options.pages}`,
  );
  const pages = await measurePages(
    api,
    { pageSize: options.pageSize, pages: options.pages, walkPages: options.walkPages },
    PAGE_RUNS,
  );
  await api.close();
  progress('statement breakdown in chDB');
  const statements = await app.call<'breakdown', StatementTime[]>('breakdown', {
    accountId,
    fromMs: from.getTime(),
    toMs: to.getTime() + 1,
    runs: 5,
  });

  let exported: ExportResult | null = null;
  const csvPath = join(dataDir, 'call_records.csv');
  if (options.postgres) {
    progress('exporting the rows as CSV for PostgreSQL');
    exported = await app.call<'export', ExportResult>('export', { path: csvPath, accountId });
  }
  // PostgreSQL gets the machine to itself.
  await app.stop();
  const postgres = options.postgres ? await postgresSeries(options, cleanups, { csvPath, accountId, from, to }) : null;
  if (postgres) series.push(...postgres.series);
  if (exported && postgres && exported.rows !== postgres.load.rows)
    throw new Error(`PostgreSQL holds ${postgres.load.rows} rows, chDB exported ${exported.rows}`);
  return {
    machine: {
      cpu: cpus()[0]?.model.trim() ?? 'unknown',
      cores: cpus().length,
      memoryGb: totalmem() / 2 ** 30,
      node: process.version,
      chdb: app.ready.chdbVersion,
      loadAverage: { beforeMeasuring: loadBeforeMeasuring, atEnd: loadavg()[0] },
    },
    load,
    exportMs: exported?.ms ?? 0,
    postgresLoad: postgres?.load ?? null,
    postgresSettings: postgres?.load.settings ?? null,
    series,
    pages,
    statements,
  };
}

async function postgresSeries(
  options: AnalyticsBenchOptions,
  cleanups: Cleanups,
  data: { csvPath: string; accountId: string; from: Date; to: Date },
) {
  const schema = `bench_analytics_${randomBytes(6).toString('hex')}`;
  cleanups.add(`drop schema ${schema}`, () => dropSchema(options.databaseUrl, schema));
  progress(`PostgreSQL: loading schema ${schema}`);
  const load = await loadPostgres(options.databaseUrl, schema, data.csvPath);
  rmSync(data.csvPath, { force: true });
  const series: Series[] = [];
  for (const hourly of [true, false]) {
    progress(`PostgreSQL overview, ${granularity(hourly)}`);
    const timed = await timePostgresOverview({
      url: options.databaseUrl,
      schema,
      accountId: data.accountId,
      from: data.from,
      to: new Date(data.to.getTime() + 1),
      hourly,
      warmup: 1,
      runs: options.pgRuns,
      workMem: options.pgWorkMem,
    });
    series.push(named('postgres', hourly, `PostgreSQL (percentile_cont), ${granularity(hourly)}`, timed));
  }
  return { load, series };
}

const granularity = (hourly: boolean) => (hourly ? 'hourly' : 'daily');

function named(source: Series['source'], hourly: boolean, label: string, timed: TimedRuns): Series {
  return {
    source,
    granularity: hourly ? 'hourly' : 'daily',
    label,
    samplesMs: timed.samplesMs,
    headline: timed.headline,
  };
}

/** Embedded everything on the temp data directory: nothing from the caller's environment leaks in. */
function appEnvironment(dataDir: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of APP_VARIABLES) delete env[name];
  return {
    ...env,
    NODE_ENV: 'production',
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    RATE_LIMIT_PER_MINUTE: '1000000000',
    LOG_LEVEL: 'warn',
  };
}

runBench({
  parse: parseAnalyticsOptions,
  run,
  format: formatAnalyticsReport,
  json: (report, options) => ({ options, ...report }),
});
