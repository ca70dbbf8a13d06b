import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';
import { progress, runBench } from '../lib/bench-main';
import { launchChromium } from '../lib/chromium';
import type { Cleanups } from '../lib/cleanups';
import { describeHost } from '../lib/machine';
import { getUntilOk } from '../lib/probe';
import { startApp } from '../lib/start-app';
import type { AnalyticsOps, CallsReadyExtra } from '../analytics/analytics-messages';
import { measureLoads } from './console-load';
import { type ConsoleBenchOptions, parseConsoleOptions } from './console-options';
import { type ConsoleReport, formatConsoleReport } from './console-report';

/*
 * The console's overview in Chromium over a loaded account: from navigation to every chart drawn
 * (the console's `tl:overview-drawn` mark), cold (fresh context: no cache, new TLS connection)
 * and warm (cached hashed assets), with the bytes transferred. The app child is the analytics
 * bench's (embedded chDB, loaded in bulk through the app's own executor, then left to merge).
 */
const DAY_MS = 86_400_000;
const BUILT_CONSOLE = join(__dirname, '..', '..', 'console');

async function run(options: ConsoleBenchOptions, cleanups: Cleanups): Promise<ConsoleReport> {
  const host = describeHost();
  const app = await startApp<CallsReadyExtra, AnalyticsOps>(cleanups, {
    script: join(__dirname, '..', 'analytics', 'analytics-app-server.js'),
    provision: { account: 'Console Bench Account', keys: ['full'], trunks: 0, providers: [] },
    readyTimeoutMs: 120_000,
    stopGraceMs: 30_000,
  });
  const { cert, port } = app.ready;
  const key = app.ready.account?.keys.full ?? '';
  const origin = `https://127.0.0.1:${port}`;
  await getUntilOk(`${origin}/v1/calls?limit=1`, cert, { authorization: `Bearer ${key}` });
  const to = Date.now();
  progress(`loading ${options.calls.toLocaleString('en-US')} calls`);
  const loaded = await app.request('load', {
    accountId: app.ready.account?.id ?? '',
    calls: options.calls,
    trunks: options.trunks,
    seed: options.seed,
    fromMs: to - options.days * DAY_MS,
    toMs: to,
    batchRows: options.batchRows,
    shortSipTrace: true,
  });
  progress(`loaded in ${(loaded.ms / 1000).toFixed(1)} s; waiting for background merges`);
  await app.request('settle', { timeoutMs: options.settleSeconds * 1000 });

  const browser = await launchChromium(cert);
  cleanups.add('close Chromium', () => browser.close());
  const url = `${origin}/console#/overview?range=${options.range}`;
  if (options.warmup > 0) await measureLoads(browser, url, key, options.warmup, true);
  progress(`${options.loads} cold loads`);
  const cold = await measureLoads(browser, url, key, options.loads, true);
  progress(`${options.loads} warm loads`);
  const warm = await measureLoads(browser, url, key, options.loads, false);
  return {
    host,
    chromium: browser.version(),
    calls: loaded.rows,
    loadMs: loaded.ms,
    url,
    bundle: bundleSizes(),
    cold,
    warm,
  };
}

/** The built console's files: raw, gzip -9 and brotli at the quality the server uses (9). */
function bundleSizes(): ConsoleReport['bundle'] {
  const assets = readdirSync(join(BUILT_CONSOLE, 'assets')).map((name) => join('assets', name));
  const files = ['index.html', ...assets].map((name) => {
    const bytes = readFileSync(join(BUILT_CONSOLE, name));
    return {
      name,
      bytes: bytes.length,
      gzipBytes: gzipSync(bytes, { level: 9 }).length,
      brotliBytes: brotliCompressSync(bytes, { params: { [zlib.BROTLI_PARAM_QUALITY]: 9 } }).length,
    };
  });
  return { files };
}

runBench({ parse: parseConsoleOptions, run, format: formatConsoleReport });
