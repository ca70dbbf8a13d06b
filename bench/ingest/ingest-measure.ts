import { join } from 'node:path';
import { progress } from '../lib/bench-main';
import { ndjsonBodies, recordsOf, type RecordSpec } from '../lib/call-records';
import { profilerFlags, runJobChild } from '../lib/child-process';
import { Cleanups, tempDir } from '../lib/cleanups';
import { monotonicMicros, profileFile } from '../lib/cpu-profile';
import { sendAll } from '../lib/ndjson-load';
import { treeCpuByProcess, TreeRss } from '../lib/process-tree';
import { settledRss } from '../lib/rss';
import { startApp } from '../lib/start-app';
import { DIRECT_SPEC_ENV, type DirectInsertResult, type DirectInsertSpec, type IngestOps } from './ingest-messages';
import type { IngestBenchOptions } from './ingest-options';
import type { IngestReport } from './ingest-report';

/* The two sides of an ingest round: the app over HTTPS, then the direct insert of the same rows. */
export const LOG_LEVEL = 'warn';
export const DAYS = 30;
const HOUR_MS = 3_600_000;

/** The app child: provision, warm up, then the measured sends; its memory and CPU around them. */
export async function measureApp(options: IngestBenchOptions, cleanups: Cleanups) {
  const profile = options.cpuProf ? profileFile('ingest-app') : undefined;
  const app = await startApp<object, IngestOps>(cleanups, {
    script: join(__dirname, 'ingest-app-server.js'),
    env: { LOG_LEVEL },
    provision: {
      account: 'Ingest Bench',
      keys: ['ingest'],
      trunks: options.trunks,
      providers: ['openai', 'elevenlabs', 'custom'],
    },
    execArgv: profilerFlags(options.cpuProf, profile),
  });
  const account = app.ready.account ?? { id: '', keys: {}, trunks: [] };
  const idle = await settledRss(app.ready.pid);
  const memory = new TreeRss(app.ready.pid);
  const toMs = Math.floor(Date.now() / HOUR_MS) * HOUR_MS;
  const records: RecordSpec = {
    seed: options.seed,
    fromMs: toMs - DAYS * 24 * HOUR_MS,
    toMs,
    trunks: account.trunks,
    accountId: account.id,
  };
  progress(`generating ${options.records} + ${options.warmupRecords} warm-up records`);
  const warmup = ndjsonBodies(recordsOf(records, options.records, options.warmupRecords), options.batchSize);
  const measured = ndjsonBodies(recordsOf(records, 0, options.records), options.batchSize);
  const meanRecordBytes = measured.reduce((sum, b) => sum + b.body.length, 0) / options.records;

  const target = { origin: `https://127.0.0.1:${app.ready.port}`, ca: app.ready.cert, key: account.keys.ingest ?? '' };
  if (warmup.length > 0) await sendAll(target, warmup, options.senders);
  progress(`sending ${options.records} records in ${measured.length} requests, ${options.senders} senders`);
  const cpuBefore = treeCpuByProcess(app.ready.pid);
  const clientCpu = process.cpuUsage();
  const sendsFrom = monotonicMicros();
  const sent = await sendAll(target, measured, options.senders);
  const sends = { fromMicros: sendsFrom, toMicros: monotonicMicros() };
  const clientCpuUsed = process.cpuUsage(clientCpu);
  const cpu = perRecord(cpuBefore, treeCpuByProcess(app.ready.pid), sent.records);
  const rss = memory.stop();
  const stats = await app.request('ingest-stats');
  await app.stop();
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
    idle,
    records,
    meanRecordBytes,
    rowsPerInsert: Math.max(1, Math.round(stats.inserts.rows / Math.max(1, stats.inserts.calls))),
    /** With --cpu-prof: where the app child's profile goes, and the measured sends on its clock. */
    profile: profile ? { file: profile, windows: [sends] } : null,
  };
}

/** The baseline child, alone on the machine once the app has stopped. */
export async function measureDirect(
  options: IngestBenchOptions,
  cleanups: Cleanups,
  records: RecordSpec,
  rowsPerInsert: number,
) {
  const spec: DirectInsertSpec = {
    dataDir: tempDir(cleanups, 'trunkline-bench-ingest-'),
    records,
    count: options.records,
    warmupCount: options.warmupRecords,
    batchRows: rowsPerInsert,
  };
  const job = runJobChild<DirectInsertResult>(join(__dirname, 'ingest-direct-insert.js'), cleanups, {
    env: { ...process.env, NODE_ENV: 'production', [DIRECT_SPEC_ENV]: JSON.stringify(spec) },
    execArgv: profilerFlags(options.cpuProf),
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
