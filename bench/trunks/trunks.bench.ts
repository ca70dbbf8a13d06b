import { progress, runBench } from './support/bench-main';
import { randomBytes } from 'node:crypto';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { BARE_SPEC_ENV, BareReady, BareServerSpec } from './support/child-messages';
import { Cleanups } from './support/cleanups';
import { LoadRun, LoadTarget, measure, medianOf } from './support/http-load';
import { describeMachine } from './support/machine';
import { getUntilOk } from './support/probe';
import { startServerChild } from './support/server-child';
import { startPlatformApp } from './support/platform-app';
import { fillAccount, newestTrunkIds } from './support/trunks-account';
import { processTreeCpu } from './support/trunks-process-cpu';
import { parseTrunksBenchOptions, TrunksBenchOptions } from './support/trunks-options';
import { formatTrunksReport, TrunksBenchReport } from './support/trunks-report';
import { createTrunkRequests, updateTrunkRequests } from './support/trunks-requests';
import { measureWrites } from './support/trunks-write-load';

/*
 * The trunk API under load, on the PostgreSQL event store with Redis read models: POST and
 * PATCH with concurrent clients, then the trunk list of a 10,000-trunk account against the
 * platform bench's bare Fastify HTTPS server serving the same bytes, measured in the same run.
 * The app runs in a child process (bench/support/app-server.ts) in a throwaway schema and Redis
 * namespace, both removed at the end, whatever happened.
 */
const LOG_LEVEL = 'warn';
const LIST_PATH = '/v1/trunks?limit=100';

async function run(options: TrunksBenchOptions, cleanups: Cleanups): Promise<TrunksBenchReport> {
  const machine = await describeMachine(options.databaseUrl, options.redisUrl);

  const app = await startPlatformApp(options, cleanups, { PROVIDER_VALIDATION: 'format' });
  const treeCpu = processTreeCpu('app-server.js');
  const origin = `https://127.0.0.1:${app.ready.port}`;
  const appTarget = (path: string): LoadTarget => ({
    url: `${origin}${path}`,
    ca: app.ready.cert,
    headers: { authorization: `Bearer ${app.ready.accountKey}` },
    cpuMicros: treeCpu ?? app.cpuMicros,
  });
  // The key reaches the Redis read model through the projections a moment after it is issued.
  await getUntilOk(appTarget(LIST_PATH).url, app.ready.cert, appTarget(LIST_PATH).headers);
  const writes = await measureWriteRuns(appTarget(''), options, randomBytes(6).toString('hex'));

  progress(`creating trunks up to ${options.trunks} with ${options.seedConnections} concurrent POSTs`);
  const seed = await fillAccount(appTarget(''), writes.creates, options.trunks, options.seedConnections);
  progress(`created ${seed.created} trunks in ${seed.seconds.toFixed(1)} s`);

  const list = await measureList(appTarget(LIST_PATH), app.ready, options, cleanups);
  await app.stop();
  return {
    machine: { ...machine, loadAverageAtEnd: Math.round(loadavg()[0] * 100) / 100 },
    settings: {
      writers: options.writers,
      seconds: options.seconds,
      warmupSeconds: options.warmupSeconds,
      patchTrunks: writes.patchTrunks,
      trunks: options.trunks,
      seedConnections: options.seedConnections,
      connections: options.connections,
      rounds: options.rounds,
      logLevel: LOG_LEVEL,
      listPath: LIST_PATH,
      listBodyBytes: list.bodyBytes,
      appCpu: treeCpu
        ? 'app process and its descendants (the chDB engine), from /proc'
        : 'app process only (process.cpuUsage): the chDB engine process is not counted',
    },
    post: writes.post,
    patch: writes.patch,
    seed,
    list: {
      bare: list.bare,
      app: list.app,
      ratio: list.app.median.requestsPerSecond / list.bare.median.requestsPerSecond,
    },
  };
}

/** POST, then PATCH over the newest trunks (created first if the POST run made too few). */
async function measureWriteRuns(target: LoadTarget, options: TrunksBenchOptions, suffix: string) {
  const settings = { connections: options.writers, seconds: options.seconds, warmupSeconds: options.warmupSeconds };
  progress(`POST /v1/trunks: ${options.writers} clients, ${options.warmupSeconds} s warm-up + ${options.seconds} s`);
  const creates = createTrunkRequests(suffix);
  const post = await measureWrites(target, creates, settings);
  progress(`POST: ${post.requestsPerSecond.toFixed(0)} requests/s`);

  await fillAccount(target, creates, options.patchTrunks, options.writers);
  const ids = await newestTrunkIds(target, options.patchTrunks);
  progress(`PATCH /v1/trunks/{id}: ${options.writers} clients over ${ids.length} trunks`);
  const patch = await measureWrites(target, updateTrunkRequests(ids), settings);
  progress(`PATCH: ${patch.requestsPerSecond.toFixed(0)} requests/s`);
  return { creates, post, patch, patchTrunks: ids.length };
}

/** The harness's bare server serving the app's own list page; alternating rounds, as api.bench.ts does. */
async function measureList(
  appTarget: LoadTarget,
  tls: { cert: string; key: string },
  options: TrunksBenchOptions,
  cleanups: Cleanups,
) {
  const body = await getUntilOk(appTarget.url, appTarget.ca, appTarget.headers);
  const spec: BareServerSpec = { cert: tls.cert, key: tls.key, route: new URL(appTarget.url).pathname, body };
  const bare = await startServerChild<BareReady>(join(__dirname, 'support', 'bare-server.js'), cleanups, {
    env: { ...process.env, NODE_ENV: 'production', [BARE_SPEC_ENV]: JSON.stringify(spec) },
  });
  const bareUrl = new URL(appTarget.url);
  bareUrl.port = String(bare.ready.port);
  const bareTarget: LoadTarget = {
    url: bareUrl.href,
    ca: tls.cert,
    headers: appTarget.headers,
    cpuMicros: bare.cpuMicros,
  };
  const bareBody = await getUntilOk(bareTarget.url, bareTarget.ca, {});
  if (Buffer.byteLength(bareBody) !== Buffer.byteLength(body))
    throw new Error(`bare body is ${Buffer.byteLength(bareBody)} B, the app's ${Buffer.byteLength(body)} B`);

  const settings = { connections: options.connections, seconds: options.seconds, warmupSeconds: options.warmupSeconds };
  const bareRuns: LoadRun[] = [];
  const appRuns: LoadRun[] = [];
  for (let round = 1; round <= options.rounds; round++) {
    bareRuns.push(await measure(bareTarget, settings));
    progress(`GET round ${round}/${options.rounds}: bare ${bareRuns.at(-1)?.requestsPerSecond.toFixed(0)} requests/s`);
    appRuns.push(await measure(appTarget, settings));
    progress(`GET round ${round}/${options.rounds}: app  ${appRuns.at(-1)?.requestsPerSecond.toFixed(0)} requests/s`);
  }
  await bare.stop();
  return {
    bodyBytes: Buffer.byteLength(body),
    bare: { median: medianOf(bareRuns), runs: bareRuns },
    app: { median: medianOf(appRuns), runs: appRuns },
  };
}

runBench({
  parse: parseTrunksBenchOptions,
  run,
  format: formatTrunksReport,
});
