import type { ProfiledRun } from '../lib/cpu-profile';
import { chdbPackageVersion, describeHost, type Host } from '../lib/machine';
import type { TreeRssFigures } from '../lib/process-tree';
import { meets, ratioLine, runsLine, table } from '../lib/report';
import type { StatementTally } from './ingest-messages';

/** Issue 16: the app within 80 % of a direct insert of the same rows. */
export const RATIO_TARGET = 0.8;
export const RECORDS_PER_SECOND_TARGET = 50_000;

export interface IngestMachine extends Host {
  chdb: string;
}

export interface IngestReport {
  machine: IngestMachine & { engine: string };
  settings: {
    records: number;
    batchSize: number;
    senders: number;
    trunks: number;
    seed: number;
    days: number;
    warmupRecords: number;
    rounds: number;
    meanRecordBytes: number;
    logLevel: string;
  };
  app: {
    recordsPerSecond: number;
    seconds: number;
    requests: number;
    retries: number;
    p50Ms: number;
    p99Ms: number;
    /** CPU of the app and its chDB process over the measured sends, per record; null without /proc. */
    cpu: { totalMicrosPerRecord: number; byProcess: Record<string, number> } | null;
    /** The bench process's own CPU (the senders: TLS, HTTP) per record. */
    clientCpuMicrosPerRecord: number;
    /** The app and its chDB process together, sampled from ready to stop; null without /proc. */
    memory: TreeRssFigures | null;
    /** Over the whole run, warm-up included. */
    inserts: StatementTally;
    lookups: StatementTally;
  };
  direct: {
    recordsPerSecond: number;
    seconds: number;
    inserts: number;
    rowsPerInsert: number;
    /** CPU during the INSERT calls only. */
    cpuMicrosPerRecord: number | null;
    memory: TreeRssFigures | null;
  };
  /** records/s of each round. The headline rates are their medians; the other figures come from the median app round. */
  runs: { app: number; direct: number }[];
  ratio: number;
  ratioTarget: number;
  recordsPerSecondTarget: number;
  /** With --cpu-prof: the app child's profile over the measured sends of every round. */
  cpuProfile?: ProfiledRun;
}

export function describeIngestMachine(): IngestMachine {
  return { ...describeHost(), chdb: chdbPackageVersion() };
}

export function formatIngestReport(r: IngestReport): string {
  const { machine: m, settings: s, app, direct } = r;
  const rows = table([
    ['what', 'records/s', 'seconds', 'CPU µs/record', 'peak RSS MiB'],
    [
      `direct chDB insert (insertJsonEachRow of ready text, ${direct.rowsPerInsert} rows per INSERT)`,
      ...cells(direct.recordsPerSecond, direct.seconds, direct.cpuMicrosPerRecord, direct.memory),
    ],
    [
      `Trunkline app, POST /v1/ingest/calls over HTTPS (${s.senders} senders)`,
      ...cells(app.recordsPerSecond, app.seconds, app.cpu?.totalMicrosPerRecord ?? null, app.memory),
    ],
  ]);
  const out = [
    `machine: ${m.cpu}, ${m.cores} cores, ${m.memoryGiB} GiB, node ${m.node}; chdb ${m.chdb} (ClickHouse ${m.engine}); load average ${m.loadAverage} at start`,
    `load: ${fmt(s.records)} records (${fmt(s.meanRecordBytes)} B of NDJSON each on average, ${s.trunks} trunks, last ${s.days} days, seed ${s.seed}) in bodies of ${fmt(s.batchSize)},` +
      ` ${s.senders} concurrent senders (undici, keep-alive, HTTPS); ${fmt(s.warmupRecords)} warm-up records first in both, not counted;` +
      (s.rounds === 1 ? ' 1 round (app, then direct)' : ` ${s.rounds} rounds (app, then direct), median of each`),
    `app: child process, embedded chDB + PGlite in a temp DATA_DIR, in-memory read models, LOG_LEVEL=${s.logLevel};` +
      ' baseline: child process after the app stopped, same records and rows, fresh chDB, same migrations, only the INSERT calls timed',
    '',
    ...rows,
    '',
    ratioLine('app/direct', r.ratio, r.ratioTarget, 3),
    `app records/s: ${fmt(app.recordsPerSecond)} (target >= ${fmt(r.recordsPerSecondTarget)}: ${meets(app.recordsPerSecond >= r.recordsPerSecondTarget)})`,
    runsLine('records/s', { app: r.runs.map((run) => run.app), direct: r.runs.map((run) => run.direct) }, fmt),
    ...details(r),
  ];
  return `${out.join('\n')}\n`;
}

/** Where the figures come from: memory per process, CPU per process, the app's ClickHouse time. */
function details({ app, direct }: IngestReport): string[] {
  const seconds = (t: StatementTally) => `${(t.ms / 1000).toFixed(2)} s`;
  const split = (entries: [string, number][], unit: (n: number) => string) =>
    entries.map(([name, n]) => `${name} ${unit(n)}`).join(', ');
  return [
    app.memory
      ? `app peak RSS: ${mib(app.memory.peakBytes)} MiB, app and chDB processes summed every 100 ms (${mib(app.memory.firstBytes)} MiB idle before the load;` +
        ` high-water marks: ${split(
          app.memory.processes.map((p) => [p.name, p.peakBytes]),
          (b) => `${mib(b)} MiB`,
        )})`
      : 'app peak RSS: not measured (needs /proc)',
    `CPU µs/record: ${app.cpu ? `app ${split(Object.entries(app.cpu.byProcess), (n) => n.toFixed(1))}` : 'app n/a'}; bench senders ${app.clientCpuMicrosPerRecord.toFixed(1)}` +
      (app.cpu && direct.cpuMicrosPerRecord
        ? `; direct/app CPU per record ${(direct.cpuMicrosPerRecord / app.cpu.totalMicrosPerRecord).toFixed(2)} (less sensitive than records/s to other load)`
        : ''),
    `app requests: ${app.requests}, ${app.retries} retried after 503; latency p50 ${app.p50Ms.toFixed(0)} ms, p99 ${app.p99Ms.toFixed(0)} ms`,
    `app ClickHouse, warm-up included: ${app.inserts.calls} INSERTs of ${fmt(app.inserts.rows / Math.max(1, app.inserts.calls))} rows on average took ${seconds(app.inserts)};` +
      ` ${app.lookups.calls} previous-version lookup queries took ${seconds(app.lookups)} (${app.lookups.rows} rows returned)`,
  ];
}

function cells(
  recordsPerSecond: number,
  seconds: number,
  cpuMicros: number | null,
  memory: TreeRssFigures | null,
): string[] {
  return [
    fmt(recordsPerSecond),
    seconds.toFixed(2),
    cpuMicros === null ? 'n/a' : cpuMicros.toFixed(1),
    memory ? mib(memory.peakBytes) : 'n/a',
  ];
}

const fmt = (n: number): string => Math.round(n).toLocaleString('en-US');
const mib = (bytes: number): string => (bytes / 2 ** 20).toFixed(0);
