import type { LoadRun } from './http-load';
import type { Machine } from './machine';
import type { WriteRun } from './trunks-write-load';

export interface SeedFigures {
  /** Trunks the account held before, created by the POST and PATCH-setup runs. */
  before: number;
  /** Created by concurrent POSTs to reach the target. */
  created: number;
  seconds: number;
  /** The account's pagination.total afterwards. */
  total: number;
  statuses: Record<string, number>;
  errors: number;
}

export interface TrunksBenchReport {
  machine: Machine & { loadAverageAtEnd: number };
  settings: {
    writers: number;
    seconds: number;
    warmupSeconds: number;
    patchTrunks: number;
    trunks: number;
    seedConnections: number;
    connections: number;
    rounds: number;
    logLevel: string;
    listPath: string;
    listBodyBytes: number;
    /** What the app's "server CPU µs/req" covers. */
    appCpu: string;
  };
  post: WriteRun;
  patch: WriteRun;
  seed: SeedFigures;
  list: { bare: { median: LoadRun; runs: LoadRun[] }; app: { median: LoadRun; runs: LoadRun[] }; ratio: number };
}

export function formatTrunksReport(report: TrunksBenchReport): string {
  const { machine, settings: s, post, patch, seed, list } = report;
  const writes = table([
    ['write', 'requests/s', 'p50 ms', 'p99 ms', 'server CPU µs/req', 'responses', 'statuses', 'errors'],
    ['POST /v1/trunks (new name and sip_username each)', ...writeCells(post)],
    [`PATCH /v1/trunks/{id} (new system_prompt each, ${s.patchTrunks} trunks)`, ...writeCells(patch)],
  ]);
  const reads = table([
    ['read', 'requests/s', 'p50 ms', 'p99 ms', 'server CPU µs/req', 'non-2xx', 'errors'],
    [`bare Fastify HTTPS, same ${s.listBodyBytes} B JSON`, ...readCells(list.bare.median)],
    [`Trunkline app, GET ${s.listPath}`, ...readCells(list.app.median)],
  ]);
  const out = [
    `machine: ${machine.cpu}, ${machine.cores} cores, node ${machine.node}; ${machine.postgres}; Redis ${machine.redis};` +
      ` load average ${machine.loadAverage} at start, ${machine.loadAverageAtEnd} at end`,
    `app: PostgreSQL event store (throwaway schema), Redis read models (throwaway namespace), embedded chDB, PROVIDER_VALIDATION=format, LOG_LEVEL=${s.logLevel}, child process`,
    `app server CPU: ${s.appCpu}`,
    '',
    `writes: ${s.writers} concurrent clients (autocannon connections, pipelining 1, keep-alive, HTTPS); ${s.warmupSeconds} s warm-up + ${s.seconds} s measured`,
    ...writes,
    ...unexpectedLines(post, patch),
    '',
    seedLine(seed, s.seedConnections),
    '',
    `list: ${seed.total} trunks in the account; ${s.connections} connections, pipelining 1, keep-alive, HTTPS; ${s.warmupSeconds} s warm-up + ${s.seconds} s per run;` +
      ` ${s.rounds} alternating rounds (bare, app, ...), median of each`,
    ...reads,
    '',
    `ratio app/bare (GET list): ${list.ratio.toFixed(2)}; server CPU per request app/bare: ${(list.app.median.cpuMicrosPerRequest / list.bare.median.cpuMicrosPerRequest).toFixed(1)}x`,
    `runs, requests/s: bare ${list.bare.runs.map((r) => r.requestsPerSecond.toFixed(0)).join(', ')}; app ${list.app.runs.map((r) => r.requestsPerSecond.toFixed(0)).join(', ')}`,
  ];
  return `${out.join('\n')}\n`;
}

function unexpectedLines(post: WriteRun, patch: WriteRun): string[] {
  const lines: string[] = [];
  if (post.unexpected + post.errors > 0)
    lines.push(
      `WARNING: ${post.unexpected} POST responses were not 201 and ${post.errors} requests failed (statuses above)`,
    );
  if (patch.unexpected + patch.errors > 0)
    lines.push(
      `WARNING: ${patch.unexpected} PATCH responses were not 200 and ${patch.errors} requests failed (statuses above)`,
    );
  return lines;
}

function seedLine(seed: SeedFigures, connections: number): string {
  if (seed.created === 0)
    return `setup: ${seed.before} trunks in the account already; none created; account total ${seed.total}`;
  return (
    `setup: ${seed.before} trunks in the account; ${seed.created} more created by POST with ${connections} connections in ${seed.seconds.toFixed(1)} s` +
    ` (${(seed.created / seed.seconds).toFixed(0)} trunks/s; ${statusList(seed.statuses)}${seed.errors ? `, ${seed.errors} errors` : ''}); account total ${seed.total}`
  );
}

function table(rows: string[][]): string[] {
  const widths = rows[0].map((_, i) => Math.max(...rows.map((row) => row[i].length)));
  const line = (row: string[]) =>
    row.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join('  ');
  return [line(rows[0]), line(widths.map((w) => '-'.repeat(w))), ...rows.slice(1).map(line)];
}

function writeCells(run: WriteRun): string[] {
  return [
    run.requestsPerSecond.toFixed(0),
    run.p50Ms.toFixed(2),
    run.p99Ms.toFixed(2),
    run.cpuMicrosPerRequest.toFixed(0),
    String(run.requests),
    statusList(run.statuses),
    String(run.errors),
  ];
}

function readCells(run: LoadRun): string[] {
  return [
    run.requestsPerSecond.toFixed(0),
    run.p50Ms.toFixed(2),
    run.p99Ms.toFixed(2),
    run.cpuMicrosPerRequest.toFixed(0),
    String(run.non2xx),
    String(run.errors),
  ];
}

function statusList(statuses: Record<string, number>): string {
  const entries = Object.entries(statuses).sort(([a], [b]) => Number(a) - Number(b));
  return entries.length === 0 ? 'none' : entries.map(([status, count]) => `${status}×${count}`).join(' ');
}
