import { randomBytes } from 'node:crypto';
import { startBareServer } from '../lib/bare-baseline';
import { progress, runBench } from '../lib/bench-main';
import { profilerFlags } from '../lib/child-process';
import { Cleanups } from '../lib/cleanups';
import { alternateRounds, type LoadTarget, measure } from '../lib/http-load';
import { describeMachine, loadAverageNow } from '../lib/machine';
import { getUntilOk } from '../lib/probe';
import { treeCpuMicros } from '../lib/process-tree';
import { startApp, throwawayStores } from '../lib/start-app';
import { fillAccount, newestTrunkIds } from './trunks-account';
import { parseTrunksBenchOptions, type TrunksBenchOptions } from './trunks-options';
import { formatTrunksReport, type TrunksBenchReport, type WriteRun } from './trunks-report';
import { createTrunkRequests, updateTrunkRequests } from './trunks-requests';

/*
 * The trunk API under load, on the PostgreSQL event store with Redis read models: POST and
 * PATCH with concurrent clients, then the trunk list of a 10,000-trunk account against the bare
 * Fastify HTTPS server serving the same bytes, measured in the same run. The app runs in a child
 * process (lib/app-server.ts) in a throwaway schema and Redis namespace, both removed at the end,
 * whatever happened.
 */
const LOG_LEVEL = 'warn';
const LIST_PATH = '/v1/trunks?limit=100';

async function run(options: TrunksBenchOptions, cleanups: Cleanups): Promise<TrunksBenchReport> {
  const machine = await describeMachine(options.databaseUrl, options.redisUrl);
  const app = await startApp(cleanups, {
    env: { ...throwawayStores(options, cleanups), LOG_LEVEL, PROVIDER_VALIDATION: 'format' },
    provision: { account: 'Bench Account', keys: ['full'], trunks: 0, providers: [] },
    execArgv: profilerFlags(options.cpuProf),
  });
  // The app's chDB engine runs in a process of its own: counted through /proc where there is one.
  const wholeTree = treeCpuMicros(app.ready.pid) !== null;
  const origin = `https://127.0.0.1:${app.ready.port}`;
  const appTarget = (path: string): LoadTarget => ({
    url: `${origin}${path}`,
    ca: app.ready.cert,
    headers: { authorization: `Bearer ${app.ready.account?.keys.full}` },
    cpuMicros: wholeTree ? async () => treeCpuMicros(app.ready.pid) ?? 0 : app.cpuMicros,
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
    machine: { ...machine, loadAverageAtEnd: loadAverageNow() },
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
      appCpu: wholeTree
        ? 'app process and its descendants (the chDB engine), from /proc'
        : 'app process only (process.cpuUsage): the chDB engine process is not counted',
    },
    post: writes.post,
    patch: writes.patch,
    seed,
    list: { ...list.runs, ratio: list.runs.app.median.requestsPerSecond / list.runs.bare.median.requestsPerSecond },
  };
}

/** POST, then PATCH over the newest trunks (created first if the POST run made too few). */
async function measureWriteRuns(target: LoadTarget, options: TrunksBenchOptions, suffix: string) {
  const settings = { connections: options.writers, seconds: options.seconds, warmupSeconds: options.warmupSeconds };
  progress(`POST /v1/trunks: ${options.writers} clients, ${options.warmupSeconds} s warm-up + ${options.seconds} s`);
  const creates = createTrunkRequests(suffix);
  const post = withUnexpected(await measure(target, settings, creates), creates.expectedStatus);
  progress(`POST: ${post.requestsPerSecond.toFixed(0)} requests/s`);

  await fillAccount(target, creates, options.patchTrunks, options.writers);
  const ids = await newestTrunkIds(target, options.patchTrunks);
  progress(`PATCH /v1/trunks/{id}: ${options.writers} clients over ${ids.length} trunks`);
  const updates = updateTrunkRequests(ids);
  const patch = withUnexpected(await measure(target, settings, updates), updates.expectedStatus);
  progress(`PATCH: ${patch.requestsPerSecond.toFixed(0)} requests/s`);
  return { creates, post, patch, patchTrunks: ids.length };
}

function withUnexpected(run: Omit<WriteRun, 'unexpected'>, expectedStatus: number): WriteRun {
  const unexpected = Object.entries(run.statuses).reduce(
    (sum, [status, count]) => sum + (Number(status) === expectedStatus ? 0 : count),
    0,
  );
  return { ...run, unexpected };
}

/** The bare server serving the app's own list page; alternating rounds, as api.bench.ts does. */
async function measureList(
  appTarget: LoadTarget,
  tls: { cert: string; key: string },
  options: TrunksBenchOptions,
  cleanups: Cleanups,
) {
  const body = await getUntilOk(appTarget.url, appTarget.ca, appTarget.headers);
  const route = new URL(appTarget.url).pathname;
  const bare = await startBareServer({ cert: tls.cert, key: tls.key, route, body }, appTarget, cleanups);
  const settings = { connections: options.connections, seconds: options.seconds, warmupSeconds: options.warmupSeconds };
  const runs = await alternateRounds({ bare: bare.target, app: appTarget }, settings, options.rounds, 'GET ');
  await bare.stop();
  return { bodyBytes: Buffer.byteLength(body), runs };
}

runBench({ parse: parseTrunksBenchOptions, run, format: formatTrunksReport });
