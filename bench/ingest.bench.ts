import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ndjsonBatches } from '../src/tools/call-generator';
import { Cleanups } from './support/cleanups';
import { runJobChild } from './support/ingest-job';
import { DIRECT_SPEC_ENV, DirectInsertResult, DirectInsertSpec, IngestAppReady, IngestAppStats, RecordSpec, STATS_FILE_ENV, TRUNKS_ENV } from './support/ingest-messages';
import { IngestBenchOptions, parseIngestOptions } from './support/ingest-options';
import { recordsOf } from './support/ingest-records';
import { describeIngestMachine, formatIngestReport, IngestReport, RATIO_TARGET, RECORDS_PER_SECOND_TARGET } from './support/ingest-report';
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
const CLEARED_VARIABLES = ['ADMIN_API_KEY', 'APP_ENV', 'EVENT_STORE_URL', 'EVENT_STORE_SCHEMA', 'CLICKHOUSE_URL', 'REDIS_URL', 'REDIS_NAMESPACE', 'TLS_MODE', 'TLS_CERT_FILE', 'TLS_KEY_FILE', 'PORT', 'HOST'];

async function run(options: IngestBenchOptions, cleanups: Cleanups): Promise<IngestReport> {
  const machine = describeIngestMachine();
  const appDir = tempDir(cleanups);
  const statsFile = join(appDir, 'bench-ingest-stats.json');
  const execArgv = options.cpuProfDir ? ['--cpu-prof', `--cpu-prof-dir=${options.cpuProfDir}`] : [];
  const app = await startServerChild<IngestAppReady>(join(__dirname, 'support', 'ingest-app-server.js'), cleanups, {
    env: appEnvironment(appDir, statsFile, options.trunks),
    execArgv,
  });
  const toMs = Math.floor(Date.now() / HOUR_MS) * HOUR_MS;
  const records: RecordSpec = { seed: options.seed, fromMs: toMs - DAYS * 24 * HOUR_MS, toMs, trunks: app.ready.trunks, accountId: app.ready.accountId };
  progress(`generating ${options.records} + ${options.warmupRecords} warm-up records`);
  const warmup = bodiesOf(records, options.records, options.warmupRecords, options.batchSize);
  let measured: NdjsonBody[] | null = bodiesOf(records, 0, options.records, options.batchSize);
  const meanRecordBytes = measured.reduce((sum, b) => sum + b.body.length, 0) / options.records;

  const target = { origin: `https://127.0.0.1:${app.ready.port}`, ca: app.ready.cert, key: app.ready.ingestKey };
  if (warmup.length > 0) await sendAll(target, warmup, options.senders);
  progress(`sending ${options.records} records in ${measured.length} requests, ${options.senders} senders`);
  const cpuBefore = await app.cpuMicros();
  const sent = await sendAll(target, measured, options.senders);
  const appCpuMicros = (await app.cpuMicros()) - cpuBefore;
  await app.stop();
  measured = null;
  const stats = JSON.parse(readFileSync(statsFile, 'utf8')) as IngestAppStats;
  const rowsPerInsert = Math.max(1, Math.round(stats.inserts.rows / Math.max(1, stats.inserts.calls)));

  progress(`direct insert of the same records, ${rowsPerInsert} rows per INSERT`);
  const spec: DirectInsertSpec = { dataDir: tempDir(cleanups), records, count: options.records, warmupCount: options.warmupRecords, batchRows: rowsPerInsert };
  const direct = await runJobChild<DirectInsertResult>(join(__dirname, 'support', 'ingest-direct-insert.js'), cleanups, {
    env: { ...process.env, NODE_ENV: 'production', [DIRECT_SPEC_ENV]: JSON.stringify(spec) },
    execArgv,
  });

  const appRate = sent.records / sent.seconds;
  const directRate = direct.records / direct.seconds;
  return {
    machine: { ...machine, engine: direct.engineVersion },
    settings: {
      records: options.records, batchSize: options.batchSize, senders: options.senders, trunks: options.trunks, seed: options.seed, days: DAYS,
      warmupRecords: options.warmupRecords, meanRecordBytes, logLevel: LOG_LEVEL,
    },
    app: {
      recordsPerSecond: appRate, seconds: sent.seconds, requests: sent.requests, retries: sent.retries, p50Ms: sent.p50Ms, p99Ms: sent.p99Ms,
      cpuMicrosPerRecord: appCpuMicros / sent.records, peakRssBytes: stats.peakRssBytes, idleRssBytes: app.ready.idleRssBytes,
      inserts: stats.inserts, lookups: stats.lookups,
    },
    direct: {
      recordsPerSecond: directRate, seconds: direct.seconds, inserts: direct.inserts, rowsPerInsert,
      cpuMicrosPerRecord: direct.cpuMicros / direct.records, peakRssBytes: direct.peakRssBytes,
    },
    ratio: appRate / directRate,
    ratioTarget: RATIO_TARGET,
    recordsPerSecondTarget: RECORDS_PER_SECOND_TARGET,
  };
}

/** Request bodies as Buffers, built before the clock starts so the senders only send. */
function bodiesOf(spec: RecordSpec, start: number, count: number, batchSize: number): NdjsonBody[] {
  const bodies: NdjsonBody[] = [];
  for (const batch of ndjsonBatches(recordsOf(spec, start, count), batchSize)) bodies.push({ body: Buffer.from(batch.body), count: batch.count });
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

function progress(message: string): void {
  process.stderr.write(`bench: ${message}\n`);
}

async function main(): Promise<void> {
  const options = parseIngestOptions(process.argv.slice(2));
  const cleanups = new Cleanups();
  const interrupted = (signal: NodeJS.Signals) => {
    progress(`${signal}: cleaning up`);
    void cleanups.runAll().finally(() => process.exit(130));
  };
  process.once('SIGINT', interrupted).once('SIGTERM', interrupted);
  try {
    const report = await run(options, cleanups);
    process.stdout.write(options.json ? `${JSON.stringify(report, null, 2)}\n` : formatIngestReport(report));
  } finally {
    await cleanups.runAll();
    process.off('SIGINT', interrupted).off('SIGTERM', interrupted);
  }
}

main().then(
  () => exitSoon(0),
  (error: unknown) => {
    process.stderr.write(`bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    exitSoon(1);
  },
);

/** Everything is closed by now; this only guards against a handle some library left open. */
function exitSoon(code: number): void {
  process.exitCode = code;
  setTimeout(() => {
    progress('a handle was still open 5 s after the end; exiting');
    process.exit(code);
  }, 5000).unref();
}
