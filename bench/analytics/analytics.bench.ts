import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { progress, runBench } from '../lib/bench-main';
import { Cleanups, dropSchema, tempDir } from '../lib/cleanups';
import { describeHost, loadAverageNow } from '../lib/machine';
import { getUntilOk } from '../lib/probe';
import { startApp } from '../lib/start-app';
import type { AnalyticsReport, AppLoadFigures, ConcurrencySeries, Series } from './analytics-figures';
import { ApiClient, measurePages, overviewPath, timeConcurrency, timeOverview } from './analytics-http';
import type { AnalyticsOps, CallsReadyExtra, ExportResult, TimedRuns } from './analytics-messages';
import { type AnalyticsBenchOptions, parseAnalyticsOptions } from './analytics-options';
import { loadPostgres, timePostgresOverview } from './analytics-postgres';
import { formatAnalyticsReport } from './analytics-report';

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
const HOUR_MS = 3_600_000;
const PAGE_RUNS = 10;

async function run(options: AnalyticsBenchOptions, cleanups: Cleanups): Promise<AnalyticsReport> {
  const host = describeHost();
  const dataDir = tempDir(cleanups, 'trunkline-analytics-bench-');
  const app = await startApp<CallsReadyExtra, AnalyticsOps>(cleanups, {
    script: join(__dirname, 'analytics-app-server.js'),
    dataDir,
    provision: { account: 'Analytics Bench Account', keys: ['full'], trunks: 0, providers: [] },
    readyTimeoutMs: 120_000,
    // The app drains and closes chDB.
    stopGraceMs: 30_000,
  });
  const { cert, port } = app.ready;
  const accountId = app.ready.account?.id ?? '';
  const accountKey = app.ready.account?.keys.full ?? '';
  const origin = `https://127.0.0.1:${port}`;
  await getUntilOk(`${origin}/v1/calls?limit=1`, cert, { authorization: `Bearer ${accountKey}` });

  const to = new Date();
  const from = new Date(to.getTime() - options.days * DAY_MS);
  progress(`loading ${options.calls.toLocaleString('en-US')} calls into chDB`);
  const loaded = await app.request('load', {
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
  const settled = await app.request('settle', { timeoutMs: options.settleSeconds * 1000 });
  const load: AppLoadFigures = {
    ...loaded,
    batchRows: options.batchRows,
    shortSipTrace: options.shortSipTrace,
    settleMs: settled.ms,
    settled: settled.settled,
    parts: settled.parts,
  };

  const loadBeforeMeasuring = loadAverageNow();
  const series: Series[] = [];
  const api = new ApiClient(origin, cert, accountKey);
  cleanups.add('close HTTP client', () => api.close());
  /** One series of overview requests per granularity; `path` gives each request's own path. */
  const appSeries = async (
    source: Series['source'],
    label: string,
    path: (hourly: boolean) => string | (() => string),
    warmup: number,
    runs: number,
  ) => {
    for (const hourly of [true, false]) {
      progress(`${label}, ${granularity(hourly)}`);
      const timed = await timeOverview(api, path(hourly), warmup, runs);
      series.push(named(source, hourly, `${label}, ${granularity(hourly)}`, timed));
    }
  };
  const { warmup, runs, days } = options;
  await appSeries('app', 'app over HTTPS (aggregates + raw edges)', (h) => overviewPath(from, to, h), warmup, runs);
  // A dashboard's range: the last days up to each request's instant, so both edges move with every request.
  const upToNow = (hourly: boolean) => () => overviewPath(new Date(Date.now() - days * DAY_MS), new Date(), hourly);
  await appSeries('app-now', `app, ${days} days up to each request`, upToNow, warmup, runs);
  // The same requests when the whole hours are not kept yet: each range starts an hour after the one before.
  const later = (hourly: boolean) => {
    let shift = 0;
    return () => overviewPath(new Date(from.getTime() + ++shift * HOUR_MS), to, hourly);
  };
  await appSeries('app-cold', 'app, whole hours not kept (a new range each time)', later, 0, options.coldRuns);
  const concurrency = await measureConcurrency(api, { from, to }, options);
  for (const hourly of [true, false]) {
    progress(`raw rows in chDB, ${granularity(hourly)}`);
    const timed = await app.request('raw', {
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
  const statements = await app.request('breakdown', {
    accountId,
    fromMs: from.getTime(),
    toMs: to.getTime() + 1,
    runs: 5,
  });

  let exported: ExportResult | null = null;
  const csvPath = join(dataDir, 'call_records.csv');
  if (options.postgres) {
    progress('exporting the rows as CSV for PostgreSQL');
    exported = await app.request('export', { path: csvPath, accountId });
  }
  // PostgreSQL gets the machine to itself.
  await app.stop();
  const postgres = options.postgres ? await postgresSeries(options, cleanups, { csvPath, accountId, from, to }) : null;
  if (postgres) series.push(...postgres.series);
  if (exported && postgres && exported.rows !== postgres.load.rows)
    throw new Error(`PostgreSQL holds ${postgres.load.rows} rows, chDB exported ${exported.rows}`);
  return {
    machine: {
      ...host,
      chdb: app.ready.extra.chdbVersion,
      loadAverageBeforeMeasuring: loadBeforeMeasuring,
      loadAverageAtEnd: loadAverageNow(),
    },
    load,
    exportMs: exported?.ms ?? 0,
    postgresLoad: postgres?.load ?? null,
    postgresSettings: postgres?.load.settings ?? null,
    series,
    pages,
    statements,
    concurrency,
  };
}

/*
 * GET /v1/analytics/concurrency over the same range: it has no aggregate table, so its cost grows
 * with the calls in the range (docs/analytics.md). The whole account, then its busiest trunk (the
 * console's trunk page asks for one trunk); the overview's series above are its same-run baseline.
 */
async function measureConcurrency(
  api: ApiClient,
  range: { from: Date; to: Date },
  options: AnalyticsBenchOptions,
): Promise<ConcurrencySeries[]> {
  const overview = await api.get<{ by_trunk: { trunk_id: string }[] }>(overviewPath(range.from, range.to, false));
  const busiest = overview.by_trunk[0]?.trunk_id;
  const series: ConcurrencySeries[] = [];
  for (const trunkId of [undefined, busiest]) {
    const label = trunkId ? 'one trunk (the busiest), daily' : 'whole account, daily';
    progress(`GET /v1/analytics/concurrency, ${label}`);
    const timed = await timeConcurrency(
      api,
      { start: range.from, end: range.to, hourly: false, trunkId },
      1,
      options.concurrencyRuns,
    );
    series.push({ label, ...timed });
  }
  return series;
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

runBench({
  parse: parseAnalyticsOptions,
  run,
  format: formatAnalyticsReport,
  json: (report, options) => ({ options, ...report }),
});
