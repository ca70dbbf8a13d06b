import { createWriteStream } from 'node:fs';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { Agent, request } from 'undici';
import type { ExportFileFormat } from '../../src/exports/domain/export.events';
import { progress, runBench } from '../lib/bench-main';
import { Cleanups, tempDir } from '../lib/cleanups';
import { describeHost, loadAverageNow } from '../lib/machine';
import { getUntilOk } from '../lib/probe';
import { startApp } from '../lib/start-app';
import type { CallsReadyExtra } from '../analytics/analytics-messages';
import type { ExportsOps } from './exports-messages';
import { type ExportsBenchOptions, parseExportsOptions } from './exports-options';
import { type ExportFigures, type ExportsReport, formatExportsReport } from './exports-report';
import { RssWindow } from './exports-rss';

/*
 * A bulk export of N calls (1M by default) through the API: POST /v1/exports → the job → its
 * file downloaded over HTTPS, per format: the job's time, the file's size, the download's time,
 * and the RSS of the app and of its chDB engine over the job and the download. Baseline, same
 * run, same rows: the engine writing the export's own statement to a file with no job around it.
 */
const DAY_MS = 86_400_000;

/** The fields of an export job (and of an error body) the bench reads. */
interface JobBody {
  id: string;
  status: string;
  rows: number;
  bytes: number;
  file_url: string;
  error: string | null;
}

async function run(options: ExportsBenchOptions, cleanups: Cleanups): Promise<ExportsReport> {
  const host = describeHost();
  const dataDir = tempDir(cleanups, 'trunkline-exports-bench-');
  const app = await startApp<CallsReadyExtra, ExportsOps>(cleanups, {
    script: join(__dirname, 'exports-app-server.js'),
    dataDir,
    provision: { account: 'Exports Bench Account', keys: ['full'], trunks: 0, providers: [] },
    env: { EXPORT_POLL_INTERVAL_MS: '100' },
    readyTimeoutMs: 120_000,
    stopGraceMs: 30_000,
  });
  const { cert, port, pid } = app.ready;
  const accountId = app.ready.account?.id ?? '';
  const key = app.ready.account?.keys.full ?? '';
  const origin = `https://127.0.0.1:${port}`;
  await getUntilOk(`${origin}/v1/calls?limit=1`, cert, { authorization: `Bearer ${key}` });

  const end = new Date();
  const start = new Date(end.getTime() - options.days * DAY_MS);
  progress(`loading ${options.calls.toLocaleString('en-US')} calls into chDB`);
  const loaded = await app.request('load', {
    accountId,
    calls: options.calls,
    trunks: options.trunks,
    seed: options.seed,
    fromMs: start.getTime(),
    toMs: end.getTime(),
    batchRows: options.batchRows,
    shortSipTrace: true,
  });
  progress(`loaded in ${(loaded.ms / 1000).toFixed(1)} s; waiting for background merges`);
  await app.request('settle', { timeoutMs: options.settleSeconds * 1000 });

  const agent = new Agent({ connect: { ca: cert }, headersTimeout: 600_000, bodyTimeout: 600_000 });
  cleanups.add('close HTTP agent', () => agent.close());
  const api = async (method: 'GET' | 'POST', path: string, body?: object) => {
    const response = await request(`${origin}${path}`, {
      method,
      dispatcher: agent,
      headers: { authorization: `Bearer ${key}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    return { status: response.statusCode, body: (await response.body.json()) as JobBody };
  };

  const loadBefore = loadAverageNow();
  const figures: ExportFigures[] = [];
  for (const format of options.formats) {
    progress(`baseline: the engine writes the ${format} file directly`);
    const base = await app.request('baseline', {
      accountId,
      format,
      startMs: start.getTime(),
      endMs: end.getTime(),
      path: join(dataDir, `baseline.${format}`),
    });
    progress(`POST /v1/exports (${format})`);
    const figure = await exportThroughApi(format, { api, agent, origin, key, pid, dataDir, start, end });
    figures.push({ ...figure, baselineMs: base.ms, baselineBytes: base.bytes });
  }
  await app.stop();
  return {
    machine: {
      ...host,
      chdb: app.ready.extra.chdbVersion,
      loadAverageBefore: loadBefore,
      loadAverageAtEnd: loadAverageNow(),
    },
    calls: options.calls,
    loadMs: loaded.ms,
    figures,
  };
}

interface Session {
  api: (method: 'GET' | 'POST', path: string, body?: object) => Promise<{ status: number; body: JobBody }>;
  agent: Agent;
  origin: string;
  key: string;
  pid: number;
  dataDir: string;
  start: Date;
  end: Date;
}

async function exportThroughApi(
  format: ExportFileFormat,
  s: Session,
): Promise<Omit<ExportFigures, 'baselineMs' | 'baselineBytes'>> {
  const rss = new RssWindow(s.pid);
  const posted = performance.now();
  const created = await s.api('POST', '/v1/exports', {
    format,
    start_date: s.start.toISOString(),
    end_date: s.end.toISOString(),
  });
  if (created.status !== 202) throw new Error(`POST /v1/exports: ${created.status} ${JSON.stringify(created.body)}`);
  let job = created.body;
  while (job.status === 'pending' || job.status === 'running') {
    await new Promise((resolve) => setTimeout(resolve, 100));
    job = (await s.api('GET', `/v1/exports/${created.body.id}`)).body;
  }
  const jobMs = performance.now() - posted;
  if (job.status !== 'completed') throw new Error(`export ${job.id}: ${job.status} ${job.error}`);
  progress(`downloading ${(job.bytes / 2 ** 20).toFixed(1)} MiB`);
  const downloadStarted = performance.now();
  const response = await request(`${s.origin}${job.file_url}`, {
    dispatcher: s.agent,
    headers: { authorization: `Bearer ${s.key}` },
  });
  if (response.statusCode !== 200) throw new Error(`GET ${job.file_url}: ${response.statusCode}`);
  await pipeline(response.body, createWriteStream(join(s.dataDir, `download.${format}`)));
  const downloadMs = performance.now() - downloadStarted;
  return { format, rows: job.rows, bytes: job.bytes, jobMs, downloadMs, rss: rss.stop() };
}

runBench({
  parse: parseExportsOptions,
  run,
  format: formatExportsReport,
});
