import type { Machine } from './machine';
import type { LoadRun } from './http-load';

export const RATIO_TARGET = 0.5;

export interface EventStoreFigures {
  appendsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  appends: number;
  /** Attempts refused with a version conflict and retried (when the event-store bench reports them). */
  conflicts?: number;
}

export interface BenchReport {
  machine: Machine;
  settings: {
    path: string;
    key: 'admin' | 'account';
    connections: number;
    seconds: number;
    warmupSeconds: number;
    rounds: number;
    logLevel: string;
    bodyBytes: number;
  };
  bare: { median: LoadRun; runs: LoadRun[] };
  /** The bare server making the app's Redis round trips: what no app on this design can beat. */
  floor: { median: LoadRun; runs: LoadRun[] };
  app: { median: LoadRun; runs: LoadRun[] };
  ratio: number;
  ratioTarget: number;
  eventStore: (EventStoreFigures & { writers: number; seconds: number }) | null;
}

export function formatReport(report: BenchReport): string {
  const { machine, settings, bare, floor, app, eventStore } = report;
  const rows = [
    ['what', 'requests/s', 'p50 ms', 'p99 ms', 'server CPU µs/req', 'non-2xx', 'errors'],
    [`bare Fastify HTTPS, GET ${settings.path} (${settings.bodyBytes} B JSON)`, ...cells(bare.median)],
    [
      `floor: bare + the app's 1 Redis round trip (${settings.key === 'admin' ? 'limit' : 'credential + limit'} + read-ahead script)`,
      ...cells(floor.median),
    ],
    [`Trunkline app, GET ${settings.path} (${settings.key} key)`, ...cells(app.median)],
  ];
  const widths = rows[0].map((_, i) => Math.max(...rows.map((row) => row[i].length)));
  const line = (row: string[]) =>
    row.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join('  ');
  const verdict = report.ratio >= report.ratioTarget ? 'meets target' : 'BELOW target';
  const out = [
    `machine: ${machine.cpu}, ${machine.cores} cores, node ${machine.node}; ${machine.postgres}; Redis ${machine.redis}; load average ${machine.loadAverage} at start`,
    `load: autocannon, ${settings.connections} connections, pipelining 1, keep-alive, HTTPS; ${settings.warmupSeconds} s warm-up + ${settings.seconds} s per run;` +
      ` ${settings.rounds} alternating rounds (bare, app, ...), median of each; servers in child processes; app LOG_LEVEL=${settings.logLevel}`,
    '',
    line(rows[0]),
    line(widths.map((w) => '-'.repeat(w))),
    line(rows[1]),
    line(rows[2]),
    line(rows[3]),
    '',
    `ratio app/bare: ${report.ratio.toFixed(2)} (target >= ${report.ratioTarget.toFixed(2)}: ${verdict});` +
      ` server CPU per request app/bare: ${(app.median.cpuMicrosPerRequest / bare.median.cpuMicrosPerRequest).toFixed(1)}x`,
    `floor/bare: ${(floor.median.requestsPerSecond / bare.median.requestsPerSecond).toFixed(2)}; app/floor: ${(app.median.requestsPerSecond / floor.median.requestsPerSecond).toFixed(2)};` +
      ` server CPU per request floor/bare: ${(floor.median.cpuMicrosPerRequest / bare.median.cpuMicrosPerRequest).toFixed(1)}x`,
    `runs, requests/s: bare ${bare.runs.map((r) => r.requestsPerSecond.toFixed(0)).join(', ')}; floor ${floor.runs.map((r) => r.requestsPerSecond.toFixed(0)).join(', ')}; app ${app.runs.map((r) => r.requestsPerSecond.toFixed(0)).join(', ')}`,
    eventStore
      ? `event store (PostgreSQL), ${eventStore.writers} concurrent writers, ${eventStore.seconds} s: ${eventStore.appendsPerSecond.toFixed(0)} appends/s,` +
        ` p50 ${eventStore.p50Ms.toFixed(2)} ms, p99 ${eventStore.p99Ms.toFixed(2)} ms (${eventStore.appends} appends` +
        `${eventStore.conflicts === undefined ? '' : `, ${eventStore.conflicts} conflicts retried`})`
      : 'event store: skipped (--no-event-store)',
  ];
  return `${out.join('\n')}\n`;
}

function cells(run: LoadRun): string[] {
  return [
    run.requestsPerSecond.toFixed(0),
    run.p50Ms.toFixed(2),
    run.p99Ms.toFixed(2),
    run.cpuMicrosPerRequest.toFixed(0),
    String(run.non2xx),
    String(run.errors),
  ];
}
