import { table } from '../lib/report';
import type { AnalyticsReport, AppLoadFigures, Series } from './analytics-figures';
import type { Headline } from './analytics-messages';
import type { AnalyticsBenchOptions } from './analytics-options';
import { summarize, type Summary } from './analytics-timing';

export const APP_P95_TARGET_MS = 150;
export const POSTGRES_RATIO_TARGET = 10;

const n = (value: number, digits = 0) =>
  value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
const mb = (bytes: number) => `${n(bytes / 1e6)} MB`;
const ms = (value: number) => n(value, 1);

export function formatAnalyticsReport(r: AnalyticsReport, options: AnalyticsBenchOptions): string {
  const out = [
    `Trunkline analytics bench: ${n(options.calls)} calls over ${options.days} days, ${options.trunks} trunks, one account (seed ${options.seed})`,
    `machine: ${r.machine.cpu}, ${r.machine.cores} cores, ${r.machine.memoryGiB} GiB; node ${r.machine.node}; chDB ${r.machine.chdb} (embedded, in the app process);` +
      ` ${r.postgresSettings ? `PostgreSQL ${r.postgresSettings.server_version} (shared_buffers ${r.postgresSettings.shared_buffers}, session work_mem ${options.pgWorkMem}, max_parallel_workers_per_gather ${r.postgresSettings.max_parallel_workers_per_gather}, jit ${r.postgresSettings.jit})` : 'PostgreSQL skipped'}`,
    `1-minute load average: ${n(r.machine.loadAverage, 2)} at start, ${n(r.machine.loadAverageBeforeMeasuring, 2)} before the measurements, ${n(r.machine.loadAverageAtEnd, 2)} at the end (other work on the machine skews the figures)`,
    loadLine(r.load),
    ...(r.postgresLoad
      ? [
          `PostgreSQL load: ${n(r.postgresLoad.rows)} rows (all columns but turns and sip_trace), \\copy ${ms(r.postgresLoad.copyMs / 1000)} s,` +
            ` index (account_id, start_time) ${ms(r.postgresLoad.indexMs / 1000)} s, VACUUM ANALYZE ${ms(r.postgresLoad.analyzeMs / 1000)} s; ${mb(r.postgresLoad.tableBytes)} with index` +
            `; CSV exported from chDB in ${ms(r.exportMs / 1000)} s`,
        ]
      : []),
    '',
    ...seriesTable(r.series),
    '',
    ...verdicts(r),
    ...agreement(r),
    '',
    ...pageLines(r),
    '',
    ...concurrencyLines(r),
    '',
    "where the time goes: each statement alone through the app's chDB executor, 5 runs after 1 warm-up",
    ...r.statements.map((st) => `  ${st.label}: p50 ${ms(st.p50Ms)} ms, p95 ${ms(st.p95Ms)} ms`),
  ];
  return `${out.join('\n')}\n`;
}

function loadLine(load: AppLoadFigures): string {
  const parts = load.parts
    .map((p) => `${p.table} ${p.parts} parts, ${n(p.rows)} rows, ${mb(p.bytesOnDisk)}`)
    .join('; ');
  const trace = load.shortSipTrace
    ? `sip_trace SHORTENED to its first line (avg ${n(load.avgSipTraceBytes)} B) to keep the load short; analytics and list queries do not read it`
    : `sip_trace full (avg ${n(load.avgSipTraceBytes)} B)`;
  return (
    `load into chDB: ${n(load.rows)} rows in ${ms(load.ms / 1000)} s (${n(load.rows / (load.ms / 1000))} rows/s, ~${mb(load.jsonBytes)} JSONEachRow, batches of ${n(load.batchRows)}; ${trace});` +
    ` background merges ${load.settled ? 'settled' : 'STILL RUNNING'} after ${ms(load.settleMs / 1000)} s: ${parts}`
  );
}

function seriesTable(series: Series[]): string[] {
  const rows = [['GET /v1/analytics/overview, 30 days', 'runs', 'p50 ms', 'p95 ms', 'min ms', 'max ms']];
  for (const s of series) {
    const sum = summarize(s.samplesMs);
    rows.push([s.label, String(sum.runs), ms(sum.p50), ms(sum.p95), ms(sum.min), ms(sum.max)]);
  }
  return table(rows);
}

function verdicts(r: AnalyticsReport): string[] {
  const lines: string[] = [];
  for (const granularity of ['hourly', 'daily'] as const) {
    const app = summaryOf(r, 'app', granularity);
    const raw = summaryOf(r, 'raw', granularity);
    const pg = summaryOf(r, 'postgres', granularity);
    const p95ok = app.p95 <= APP_P95_TARGET_MS ? 'meets' : 'MISSES';
    const cold = summaryOf(r, 'app-cold', granularity);
    const now = summaryOf(r, 'app-now', granularity);
    let text = `${granularity}: app p95 ${ms(app.p95)} ms (target <= ${APP_P95_TARGET_MS} ms: ${p95ok}); up to now p95 ${ms(now.p95)} ms; whole hours not kept p95 ${ms(cold.p95)} ms; raw rows / app ${ratio(raw, app)}`;
    if (r.series.some((s) => s.source === 'postgres')) {
      const pgOk =
        pg.p50 / app.p50 >= POSTGRES_RATIO_TARGET && pg.p95 / app.p95 >= POSTGRES_RATIO_TARGET ? 'meets' : 'MISSES';
      text += `; PostgreSQL / app ${ratio(pg, app)} (target >= ${POSTGRES_RATIO_TARGET}x: ${pgOk})`;
    }
    lines.push(text);
  }
  return lines;
}

const ratio = (slow: Summary, fast: Summary) =>
  `${n(slow.p50 / fast.p50, 1)}x at p50, ${n(slow.p95 / fast.p95, 1)}x at p95`;

function summaryOf(r: AnalyticsReport, source: Series['source'], granularity: Series['granularity']): Summary {
  const series = r.series.find((s) => s.source === source && s.granularity === granularity);
  return summarize(series?.samplesMs ?? []);
}

function agreement(r: AnalyticsReport): string[] {
  const same = r.series.filter((s) => s.source !== 'app-cold' && s.source !== 'app-now');
  const daily = same.filter((s) => s.granularity === 'daily');
  const show = (pick: (h: Headline) => number) => daily.map((s) => `${s.source} ${n(pick(s.headline))}`).join(', ');
  const hourly = same
    .filter((s) => s.granularity === 'hourly')
    .map((s) => `${s.source} ${s.headline.buckets}`)
    .join(', ');
  return [
    `agreement (daily): total_calls ${show((h) => h.totalCalls)}; connected ${show((h) => h.connectedCalls)};` +
      ` p95 latency ms ${show((h) => h.p95)}; p99 ${show((h) => h.p99)}; trunks ${show((h) => h.trunks)}; daily buckets with calls ${show((h) => h.buckets)}; hourly ${hourly}`,
    '  (app: nearest rank over the latency histogram, bins exact below 256 ms and within 0.8% above; raw: quantileExact; PostgreSQL: percentile_cont, interpolated)',
  ];
}

function pageLines(r: AnalyticsReport): string[] {
  const p = r.pages;
  const [first, cursor, offset] = [summarize(p.page1Ms), summarize(p.cursorPageMs), summarize(p.offsetPageMs)];
  const walk = summarize(p.walkMs);
  const total = p.walkMs.reduce((a, b) => a + b, 0);
  return [
    `GET /v1/calls?limit=${p.pageSize} (${n(p.total)} calls), ${first.runs} runs each after the walk:`,
    `  page 1: p50 ${ms(first.p50)} ms, p95 ${ms(first.p95)} ms`,
    `  page ${n(p.pages)} by cursor (${p.cursorFrom === 'walk' ? "the walk's next_cursor" : 'cursor of the last row of page ' + n(p.pages - 1) + ', read by offset'}): p50 ${ms(cursor.p50)} ms, p95 ${ms(cursor.p95)} ms (${n(cursor.p50 / first.p50, 2)}x page 1 at p50)`,
    p.offsetFailed
      ? `  offset=${n((p.pages - 1) * p.pageSize)}: FAILED (${p.offsetFailed})`
      : `  offset=${n((p.pages - 1) * p.pageSize)} (same rows: ${p.sameRows ? 'yes' : 'NO'}): p50 ${ms(offset.p50)} ms, p95 ${ms(offset.p95)} ms (${n(offset.p50 / first.p50, 2)}x page 1 at p50)`,
    `  the walk from page 1 to ${n(p.walkMs.length)} by next_cursor: ${ms(total / 1000)} s, per page p50 ${ms(walk.p50)} ms, p95 ${ms(walk.p95)} ms;` +
      ` page 1 ${ms(p.walkMs[0])} ms, page ${n(p.walkMs.length)} ${ms(p.walkMs[p.walkMs.length - 1])} ms`,
  ];
}

/** GET /v1/analytics/concurrency beside the overview of the same range (daily), the same run's baseline. */
function concurrencyLines(r: AnalyticsReport): string[] {
  const overview = summaryOf(r, 'app', 'daily');
  return [
    `GET /v1/analytics/concurrency, the same ${r.load.rows.toLocaleString('en-US')} calls' range (no aggregate: one sweep over the calls in range):`,
    ...r.concurrency.map((c) => {
      const s = summarize(c.samplesMs);
      return (
        `  ${c.label}: ${s.runs} runs, p50 ${ms(s.p50)} ms, p95 ${ms(s.p95)} ms (min ${ms(s.min)}, max ${ms(s.max)});` +
        ` ${n(s.p50 / overview.p50, 1)}x the daily overview at p50; peak ${n(c.peak)} calls at once, ${c.buckets} buckets`
      );
    }),
  ];
}
