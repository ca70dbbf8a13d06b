import type { AppendBenchResult } from '../event-store/event-store-appends';
import { formatProfiledRun, type ProfiledRun } from '../lib/cpu-profile';
import type { MeasuredRuns } from '../lib/http-load';
import { type Machine, machineLine } from '../lib/machine';
import { LOAD_RUN_HEADER, loadRunCells, ratioLine, runsLine, table } from '../lib/report';

/** Issue 31, point 1: throughput at least 0.6 of bare Fastify's, server CPU per request at most 1.6x. */
export const RATIO_TARGET = 0.6;
export const CPU_TARGET = 1.6;

export interface ApiBenchReport {
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
  bare: MeasuredRuns;
  /** The bare server making the app's Redis round trip: what no app on this design can beat. */
  floor: MeasuredRuns;
  app: MeasuredRuns;
  ratio: number;
  ratioTarget: number;
  eventStore: (AppendBenchResult & { writers: number; seconds: number }) | null;
  /** With --cpu-prof: the app child's profile over its measured runs. */
  cpuProfile?: ProfiledRun;
}

export function formatApiReport(report: ApiBenchReport): string {
  const { machine, settings, bare, floor, app, eventStore } = report;
  const cpu = (of: MeasuredRuns) => (of.median.cpuMicrosPerRequest / bare.median.cpuMicrosPerRequest).toFixed(1);
  const rate = (of: MeasuredRuns) => of.median.requestsPerSecond;
  const out = [
    machineLine(machine),
    `load: autocannon, ${settings.connections} connections, pipelining 1, keep-alive, HTTPS; ${settings.warmupSeconds} s warm-up + ${settings.seconds} s per run;` +
      ` ${settings.rounds} alternating rounds (bare, floor, app, ...), median of each; servers in child processes; app LOG_LEVEL=${settings.logLevel}`,
    '',
    ...table([
      ['what', ...LOAD_RUN_HEADER],
      [`bare Fastify HTTPS, GET ${settings.path} (${settings.bodyBytes} B JSON)`, ...loadRunCells(bare.median)],
      ["floor: bare + the app's 1 Redis round trip (the record's HGETALL)", ...loadRunCells(floor.median)],
      [`Trunkline app, GET ${settings.path} (${settings.key} key)`, ...loadRunCells(app.median)],
    ]),
    '',
    `${ratioLine('app/bare', report.ratio, report.ratioTarget)}; server CPU per request app/bare: ${cpu(app)}x` +
      ` (target <= ${CPU_TARGET.toFixed(1)}x: ${Number(cpu(app)) <= CPU_TARGET ? 'meets target' : 'ABOVE target'})`,
    `floor/bare: ${(rate(floor) / rate(bare)).toFixed(2)}; app/floor: ${(rate(app) / rate(floor)).toFixed(2)};` +
      ` server CPU per request floor/bare: ${cpu(floor)}x`,
    runsLine('requests/s', {
      bare: bare.runs.map((r) => r.requestsPerSecond),
      floor: floor.runs.map((r) => r.requestsPerSecond),
      app: app.runs.map((r) => r.requestsPerSecond),
    }),
    eventStoreLine(eventStore),
    ...(report.cpuProfile
      ? ['', ...formatProfiledRun(report.cpuProfile, "where the app's CPU time went in its measured runs")]
      : []),
  ];
  return `${out.join('\n')}\n`;
}

function eventStoreLine(eventStore: ApiBenchReport['eventStore']): string {
  if (!eventStore) return 'event store: skipped (--no-event-store)';
  return (
    `event store (PostgreSQL), ${eventStore.writers} concurrent writers, ${eventStore.seconds} s: ${eventStore.appendsPerSecond.toFixed(0)} appends/s,` +
    ` p50 ${eventStore.p50Ms.toFixed(2)} ms, p99 ${eventStore.p99Ms.toFixed(2)} ms (${eventStore.appends} appends, ${eventStore.conflicts} conflicts retried)`
  );
}
