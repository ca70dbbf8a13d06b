import { progress, runBench } from './support/bench-main';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ndjsonBatches } from '../src/tools/call-generator';
import { Cleanups } from './support/cleanups';
import { median } from './support/http-load';
import { runJobChild } from './support/ingest-job';
import {
  DIRECT_SPEC_ENV,
  DirectInsertResult,
  DirectInsertSpec,
  IngestAppReady,
  IngestAppStats,
  RecordSpec,
  STATS_FILE_ENV,
  TRUNKS_ENV,
} from './support/ingest-messages';
import { IngestBenchOptions, parseIngestOptions } from './support/ingest-options';
import { TreeRss, TreeRssFigures, treeCpuByProcess } from './support/ingest-process-tree';
import { recordsOf } from './support/ingest-records';
import {
  describeIngestMachine,
  formatIngestReport,
  IngestReport,
  RATIO_TARGET,
  RECORDS_PER_SECOND_TARGET,
} from './support/ingest-report';
import { NdjsonBody, sendAll } from './support/ingest-senders';
import { startServerChild } from './support/server-child';

/*
 * Call-record ingestion against its own floor, in one run on one machine: the real app (child
 * process, embedded chDB) takes N generated records as NDJSON over HTTPS from concurrent senders;
 * then a second child inserts the same records, as the same rows, straight into a fresh chDB
 * through the same executor. Temp data dirs and children are removed at the end, whatever happens.
 */
const LOG_LEVEL = 'warn';
const DAYS = 30;
const HOUR_MS = 3_600_000;
const CLEARED_VARIABLES = [
  'ADMIN_API_KEY',
  'APP_ENV',
  'EVENT_STORE_URL',
  'EVENT_STORE_SCHEMA',
  'CLICKHOUSE_URL',
  'REDIS_URL',
  'REDIS_NAMESPACE',
  'TLS_MODE',
  'TLS_CERT_FILE',
  'TLS_KEY_FILE',
  'PORT',
  'HOST',
];

/**
 * Rounds of (app, then direct insert), each app with a fresh data dir: the machine's load drifts
 * between the two phases, so the headline takes the median of each side over the rounds.
 */
async function run(options: IngestBenchOptions, cleanups: Cleanups): Promise<IngestReport> {
  const machine = describeIngestMachine();
  const rounds: { app: Awaited<ReturnType<typeof measureApp>>; direct: Awaited<ReturnType<typeof measureDirect>> }[] =
    [];
  for (let round = 1; round <= options.rounds; round++) {
    const app = await measureApp(options, cleanups);
    progress(
      `round ${round}/${options.rounds}: app ${app.figures.recordsPerSecond.toFixed(0)} records/s; direct insert, ${app.rowsPerInsert} rows per INSERT`,
    );
    const direct = await measureDirect(options, cleanups, app.records, app.rowsPerInsert);
    progress(`round ${round}/${options.rounds}: direct ${direct.figures.recordsPerSecond.toFixed(0)} records/s`);
    rounds.push({ app, direct });
  }
  const byAppRate = [...rounds].sort((a, b) => a.app.figures.recordsPerSecond - b.app.figures.recordsPerSecond);
  const middle = byAppRate[Math.floor((byAppRate.length - 1) / 2)];
  const appRate = median(rounds.map((r) => r.app.figures.recordsPerSecond));
  const directRate = median(rounds.map((r) => r.direct.figures.recordsPerSecond));
  const { records, batchSize, senders, trunks, seed, warmupRecords } = options;
  return {
    machine: { ...machine, engine: middle.direct.engine },
    settings: {
      records,
      batchSize,
      senders,
      trunks,
      seed,
      days: DAYS,
      warmupRecords,
      rounds: options.rounds,
      meanRecordBytes: middle.app.meanRecordBytes,
      logLevel: LOG_LEVEL,
    },
    app: { ...middle.app.figures, recordsPerSecond: appRate, memory: highest(rounds.map((r) => r.app.figures.memory)) },
    direct: {
      ...middle.direct.figures,
      recordsPerSecond: directRate,
      memory: highest(rounds.map((r) => r.direct.figures.memory)),
    },
    runs: rounds.map((r) => ({ app: r.app.figures.recordsPerSecond, direct: r.direct.figures.recordsPerSecond })),
    ratio: appRate / directRate,
    ratioTarget: RATIO_TARGET,
    recordsPerSecondTarget: RECORDS_PER_SECOND_TARGET,
  };
}

/** Memory is reported at its worst over the rounds. */
function highest(figures: (TreeRssFigures | null)[]): TreeRssFigures | null {
  return figures.reduce<TreeRssFigures | null>(
    (worst, f) => (f && (!worst || f.peakBytes > worst.peakBytes) ? f : worst),
    null,
  );
}

/** The app child: provision, warm up, then the measured sends; its memory and CPU around them. */
async function measureApp(options: IngestBenchOptions, cleanups: Cleanups) {
  const dataDir = tempDir(cleanups);
  const statsFile = join(dataDir, 'bench-ingest-stats.json');
  const app = await startServerChild<IngestAppReady>(join(__dirname, 'support', 'ingest-app-server.js'), cleanups, {
    env: appEnvironment(dataDir, statsFile, options.trunks),
    execArgv: profilerFlags(options),
  });
  const memory = new TreeRss(app.ready.pid);
  const toMs = Math.floor(Date.now() / HOUR_MS) * HOUR_MS;
  const records: RecordSpec = {
    seed: options.seed,
    fromMs: toMs - DAYS * 24 * HOUR_MS,
    toMs,
    trunks: app.ready.trunks,
    accountId: app.ready.accountId,
  };
  progress(`generating ${options.records} + ${options.warmupRecords} warm-up records`);
  const warmup = bodiesOf(records, options.records, options.warmupRecords, options.batchSize);
  const measured = bodiesOf(records, 0, options.records, options.batchSize);
  const meanRecordBytes = measured.reduce((sum, b) => sum + b.body.length, 0) / options.records;

  const target = { origin: `https://127.0.0.1:${app.ready.port}`, ca: app.ready.cert, key: app.ready.ingestKey };
  if (warmup.length > 0) await sendAll(target, warmup, options.senders);
  progress(`sending ${options.records} records in ${measured.length} requests, ${options.senders} senders`);
  const cpuBefore = treeCpuByProcess(app.ready.pid);
  const clientCpu = process.cpuUsage();
  const sent = await sendAll(target, measured, options.senders);
  const clientCpuUsed = process.cpuUsage(clientCpu);
  const cpu = perRecord(cpuBefore, treeCpuByProcess(app.ready.pid), sent.records);
  const rss = memory.stop();
  await app.stop();
  const stats = JSON.parse(readFileSync(statsFile, 'utf8')) as IngestAppStats;
  const figures: IngestReport['app'] = {
    recordsPerSecond: sent.records / sent.seconds,
    seconds: sent.seconds,
    requests: sent.requests,
    retries: sent.retries,
    p50Ms: sent.p50Ms,
    p99Ms: sent.p99Ms,
    cpu,
    memory: rss,
    clientCpuMicrosPerRecord: (clientCpuUsed.user + clientCpuUsed.system) / sent.records,
    inserts: stats.inserts,
    lookups: stats.lookups,
  };
  return {
    figures,
    records,
    meanRecordBytes,
    rowsPerInsert: Math.max(1, Math.round(stats.inserts.rows / Math.max(1, stats.inserts.calls))),
  };
}

/** The baseline child, alone on the machine once the app has stopped. */
async function measureDirect(
  options: IngestBenchOptions,
  cleanups: Cleanups,
  records: RecordSpec,
  rowsPerInsert: number,
) {
  const spec: DirectInsertSpec = {
    dataDir: tempDir(cleanups),
    records,
    count: options.records,
    warmupCount: options.warmupRecords,
    batchRows: rowsPerInsert,
  };
  const job = runJobChild<DirectInsertResult>(join(__dirname, 'support', 'ingest-direct-insert.js'), cleanups, {
    env: { ...process.env, NODE_ENV: 'production', [DIRECT_SPEC_ENV]: JSON.stringify(spec) },
    execArgv: profilerFlags(options),
  });
  const memory = new TreeRss(job.pid);
  const result = await job.result;
  const rss = memory.stop();
  const figures: IngestReport['direct'] = {
    recordsPerSecond: result.records / result.seconds,
    seconds: result.seconds,
    inserts: result.inserts,
    rowsPerInsert,
    cpuMicrosPerRecord: rss ? result.cpuMicros / result.records : null,
    memory: rss,
  };
  return { figures, engine: result.engineVersion };
}

const profilerFlags = (options: IngestBenchOptions): string[] =>
  options.cpuProfDir ? ['--cpu-prof', `--cpu-prof-dir=${options.cpuProfDir}`] : [];

/** CPU µs per record of each process of the app's tree, and their total. */
function perRecord(
  before: Record<string, number> | null,
  after: Record<string, number> | null,
  records: number,
): IngestReport['app']['cpu'] {
  if (!before || !after) return null;
  const byProcess = Object.fromEntries(
    Object.entries(after).map(([name, micros]) => [name, (micros - (before[name] ?? 0)) / records]),
  );
  return { totalMicrosPerRecord: Object.values(byProcess).reduce((sum, micros) => sum + micros, 0), byProcess };
}

/** Request bodies as Buffers, built before the clock starts so the senders only send. */
function bodiesOf(spec: RecordSpec, start: number, count: number, batchSize: number): NdjsonBody[] {
  const bodies: NdjsonBody[] = [];
  for (const batch of ndjsonBatches(recordsOf(spec, start, count), batchSize))
    bodies.push({ body: Buffer.from(batch.body), count: batch.count });
  return bodies;
}

function tempDir(cleanups: Cleanups): string {
  const dir = mkdtempSync(join(tmpdir(), 'trunkline-bench-ingest-'));
  cleanups.add(`remove ${dir}`, async () => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

function appEnvironment(dataDir: string, statsFile: string, trunks: number): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of CLEARED_VARIABLES) delete env[name];
  return {
    ...env,
    NODE_ENV: 'production',
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    MASTER_KEY: randomBytes(32).toString('base64'),
    PROVIDER_VALIDATION: 'format',
    RATE_LIMIT_PER_MINUTE: '1000000000',
    LOG_LEVEL,
    [STATS_FILE_ENV]: statsFile,
    [TRUNKS_ENV]: String(trunks),
  };
}

runBench({
  parse: parseIngestOptions,
  run,
  format: formatIngestReport,
});
