import { join } from 'node:path';
import { progress, runBench } from '../lib/bench-main';
import { ServerChild } from '../lib/child-process';
import { type Cleanups, tempDir } from '../lib/cleanups';
import { chdbPackageVersion, describeHost } from '../lib/machine';
import { parseBenchArgs } from '../lib/options';
import { meets, ratioLine, table } from '../lib/report';
import { type IdleRss, mib, settledRss } from '../lib/rss';
import { startApp } from '../lib/start-app';
import { BARE_DIR_ENV, BARE_KIND_ENV, type BareKind, type BareReady } from './memory-messages';

/*
 * Idle memory of the app on its embedded defaults (PGlite, chDB worker, in-memory read models,
 * self-signed TLS, a temp DATA_DIR), as `npm start` runs it: first start (the data dir is created)
 * and restart (it exists), each measured once its RSS has settled. The baseline, in the same run:
 * a bare Node HTTPS server plus an idle bare chDB session, each in its own process.
 */
export const IDLE_TARGET_BYTES = 560 * 2 ** 20;

const COMMAND = {
  script: 'memory/memory.bench.js',
  options: {
    'quiet-ms': {
      type: 'integer',
      default: 5000,
      min: 500,
      help: 'RSS counts as settled after this long within 2 MiB',
    },
  },
} as const;

type MemoryOptions = ReturnType<typeof parseMemoryOptions>;

function parseMemoryOptions(argv: string[]) {
  return parseBenchArgs(argv, COMMAND);
}

interface MemoryReport {
  machine: ReturnType<typeof describeHost> & { chdb: string; date: string };
  firstStart: IdleRss;
  restart: IdleRss;
  baseline: IdleRss;
  ratio: number;
  targetBytes: number;
}

async function run(options: MemoryOptions, cleanups: Cleanups): Promise<MemoryReport> {
  const machine = { ...describeHost(), chdb: chdbPackageVersion(), date: new Date().toISOString().slice(0, 10) };
  const dataDir = tempDir(cleanups, 'trunkline-bench-memory-');
  progress('app, first start (new data dir)');
  const firstStart = await appIdle(cleanups, dataDir, options.quietMs);
  progress('app, restart (same data dir)');
  const restart = await appIdle(cleanups, dataDir, options.quietMs);
  progress('baseline: bare Node HTTPS server, bare chDB session');
  const https = await bareIdle('https', cleanups, options.quietMs);
  const chdb = await bareIdle('chdb', cleanups, options.quietMs);
  const baseline: IdleRss = {
    processes: [...https.processes, ...chdb.processes.map((p) => ({ ...p, name: `bare chDB session (${p.name})` }))],
    totalBytes: https.totalBytes + chdb.totalBytes,
    settledAfterMs: Math.max(https.settledAfterMs, chdb.settledAfterMs),
  };
  return {
    machine,
    firstStart,
    restart,
    baseline,
    ratio: firstStart.totalBytes / baseline.totalBytes,
    targetBytes: IDLE_TARGET_BYTES,
  };
}

async function appIdle(cleanups: Cleanups, dataDir: string, quietMs: number): Promise<IdleRss> {
  const app = await startApp(cleanups, { dataDir });
  try {
    return must(await settledRss(app.ready.pid, { quietMs }));
  } finally {
    await app.stop();
  }
}

async function bareIdle(kind: BareKind, cleanups: Cleanups, quietMs: number): Promise<IdleRss> {
  const env = { ...process.env, NODE_ENV: 'production', [BARE_KIND_ENV]: kind };
  const child = await ServerChild.start<BareReady>(join(__dirname, 'memory-bare.js'), cleanups, {
    env: { ...env, [BARE_DIR_ENV]: tempDir(cleanups, `trunkline-bench-bare-${kind}-`) },
  });
  try {
    return must(await settledRss(child.ready.pid, { quietMs }));
  } finally {
    await child.stop();
  }
}

function must(rss: IdleRss | null): IdleRss {
  if (!rss) throw new Error('bench:memory reads /proc: Linux only');
  return rss;
}

function formatMemoryReport(r: MemoryReport): string {
  const m = r.machine;
  const rows = (label: string, idle: IdleRss) => [
    ...idle.processes.map((p) => [`${label}: ${p.name}`, mib(p.rssBytes), mib(p.anonBytes), mib(p.fileBytes)]),
    [`${label}: total (settled after ${(idle.settledAfterMs / 1000).toFixed(1)} s)`, mib(idle.totalBytes), '', ''],
  ];
  const out = [
    `machine: ${m.cpu}, ${m.cores} cores, ${m.memoryGiB} GiB, node ${m.node}; chdb ${m.chdb}; load average ${m.loadAverage} at start; ${m.date}`,
    'app: embedded defaults (PGlite, chDB worker, in-memory read models, self-signed TLS) in a temp DATA_DIR, as `npm start`;' +
      ' idle RSS once the sum stays within 2 MiB for the quiet period; baseline: bare Node HTTPS server + bare chDB session',
    '',
    ...table([
      ['process', 'RSS MiB', 'anon MiB', 'file MiB'],
      ...rows('app, first start', r.firstStart),
      ...rows('app, restart', r.restart),
      ...rows('baseline', r.baseline),
    ]),
    '',
    `app idle RSS, first start: ${mib(r.firstStart.totalBytes)} MiB (target <= ${mib(r.targetBytes)} MiB: ${meets(r.firstStart.totalBytes <= r.targetBytes)}); restart: ${mib(r.restart.totalBytes)} MiB`,
    `${ratioLine('app/baseline idle RSS', r.ratio, null)} (baseline ${mib(r.baseline.totalBytes)} MiB)`,
    'anon: heap, stacks, WebAssembly memory; file: mapped code (node, libchdb.so), which the kernel may drop and re-read',
  ];
  return `${out.join('\n')}\n`;
}

runBench({ parse: parseMemoryOptions, run, format: formatMemoryReport });
