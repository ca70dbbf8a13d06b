import type { LoadRun, MeasuredRuns } from '../lib/http-load';
import { type Machine, machineLine } from '../lib/machine';
import { LOAD_RUN_HEADER, loadRunCells, rateCells, ratioLine, runsLine, table } from '../lib/report';

/** A write run: anything but the expected status is a finding. */
export interface WriteRun extends LoadRun {
  unexpected: number;
}

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
  list: { bare: MeasuredRuns; app: MeasuredRuns; ratio: number };
}

export function formatTrunksReport(report: TrunksBenchReport): string {
  const { machine, settings: s, post, patch, seed, list } = report;
  const writes = table([
    ['write', 'requests/s', 'p50 ms', 'p99 ms', 'server CPU µs/req', 'responses', 'statuses', 'errors'],
    ['POST /v1/trunks (new name and sip_username each)', ...writeCells(post)],
    [`PATCH /v1/trunks/{id} (new system_prompt each, ${s.patchTrunks} trunks)`, ...writeCells(patch)],
  ]);
  const reads = table([
    ['read', ...LOAD_RUN_HEADER],
    [`bare Fastify HTTPS, same ${s.listBodyBytes} B JSON`, ...loadRunCells(list.bare.median)],
    [`Trunkline app, GET ${s.listPath}`, ...loadRunCells(list.app.median)],
  ]);
  const cpu = list.app.median.cpuMicrosPerRequest / list.bare.median.cpuMicrosPerRequest;
  const out = [
    machineLine(machine, machine.loadAverageAtEnd),
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
    `${ratioLine('app/bare (GET list)', list.ratio, null)}; server CPU per request app/bare: ${cpu.toFixed(1)}x`,
    runsLine('requests/s', {
      bare: list.bare.runs.map((r) => r.requestsPerSecond),
      app: list.app.runs.map((r) => r.requestsPerSecond),
    }),
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

function writeCells(run: WriteRun): string[] {
  return [...rateCells(run), String(run.requests), statusList(run.statuses), String(run.errors)];
}

function statusList(statuses: Record<string, number>): string {
  const entries = Object.entries(statuses).sort(([a], [b]) => Number(a) - Number(b));
  return entries.length === 0 ? 'none' : entries.map(([status, count]) => `${status}×${count}`).join(' ');
}
