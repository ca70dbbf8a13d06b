import { progress, runBench } from './support/bench-main';
import { join } from 'node:path';
import { benchEventStoreAppends } from './event-store.bench';
import { BenchOptions, parseBenchOptions } from './support/bench-options';
import { BARE_SPEC_ENV, BareReady, BareServerSpec } from './support/child-messages';
import { Cleanups } from './support/cleanups';
import { LoadRun, LoadTarget, measure, medianOf } from './support/http-load';
import { describeMachine } from './support/machine';
import { getUntilOk } from './support/probe';
import { BenchReport, formatReport, RATIO_TARGET } from './support/report';
import { startServerChild } from './support/server-child';
import { startPlatformApp } from './support/platform-app';
import { hashApiKey } from '../src/platform/auth/api-key';
import { accountKeys } from '../src/projections/accounts/accounts.projection';
import { apiKeyKeys } from '../src/projections/api-keys/api-keys.projection';

/*
 * The API's cost over a bare Fastify HTTPS server, measured in one run on one machine: the real
 * app (PostgreSQL event store, Redis read models, auth, rate limit, usage counter) and a bare
 * server each run in a child process and get the same autocannon load, alternately; then the
 * PostgreSQL event store's append rate. Throwaway schema and Redis namespace, removed at the end.
 */
const LOG_LEVEL = 'warn';

async function run(options: BenchOptions, cleanups: Cleanups): Promise<BenchReport> {
  const machine = await describeMachine(options.databaseUrl, options.redisUrl);

  const app = await startPlatformApp(options, cleanups);
  const path = fillPath(options.path, app.ready.ids);
  const appTarget: LoadTarget = {
    url: `https://127.0.0.1:${app.ready.port}${path}`,
    ca: app.ready.cert,
    headers: { authorization: `Bearer ${options.key === 'admin' ? app.ready.adminKey : app.ready.accountKey}` },
    cpuMicros: app.cpuMicros,
  };
  const body = await getUntilOk(appTarget.url, appTarget.ca, appTarget.headers);

  const spec: BareServerSpec = {
    cert: app.ready.cert,
    key: app.ready.key,
    route: options.path.replace(/\{(\w+)\}/g, ':$1'),
    body,
  };
  const bare = await startServerChild<BareReady>(join(__dirname, 'support', 'bare-server.js'), cleanups, {
    env: { ...process.env, NODE_ENV: 'production', [BARE_SPEC_ENV]: JSON.stringify(spec) },
  });
  const bareTarget: LoadTarget = {
    url: `https://127.0.0.1:${bare.ready.port}${path}`,
    ca: app.ready.cert,
    headers: appTarget.headers,
    cpuMicros: bare.cpuMicros,
  };
  const bareBody = await getUntilOk(bareTarget.url, bareTarget.ca, {});
  if (Buffer.byteLength(bareBody) !== Buffer.byteLength(body))
    throw new Error(`bare body is ${Buffer.byteLength(bareBody)} B, the app's ${Buffer.byteLength(body)} B`);

  // The floor: the bare server plus the app's Redis round trips (same keys, same adapters).
  const readModels = `${app.namespace}rm:`;
  const hops: BareServerSpec['redis'] = {
    url: options.redisUrl,
    namespace: app.namespace,
    readKey: readModels + accountKeys.account(app.ready.ids.account_id),
    credentialKey: options.key === 'admin' ? null : readModels + apiKeyKeys.byHash(hashApiKey(app.ready.accountKey)),
  };
  const floor = await startServerChild<BareReady>(join(__dirname, 'support', 'bare-server.js'), cleanups, {
    env: { ...process.env, NODE_ENV: 'production', [BARE_SPEC_ENV]: JSON.stringify({ ...spec, redis: hops }) },
  });
  const floorTarget: LoadTarget = {
    url: `https://127.0.0.1:${floor.ready.port}${path}`,
    ca: app.ready.cert,
    headers: appTarget.headers,
    cpuMicros: floor.cpuMicros,
  };
  await getUntilOk(floorTarget.url, floorTarget.ca, {});

  const settings = { connections: options.connections, seconds: options.seconds, warmupSeconds: options.warmupSeconds };
  const bareRuns: LoadRun[] = [];
  const floorRuns: LoadRun[] = [];
  const appRuns: LoadRun[] = [];
  for (let round = 1; round <= options.rounds; round++) {
    bareRuns.push(await measure(bareTarget, settings));
    progress(`round ${round}/${options.rounds}: bare  ${bareRuns.at(-1)?.requestsPerSecond.toFixed(0)} requests/s`);
    floorRuns.push(await measure(floorTarget, settings));
    progress(`round ${round}/${options.rounds}: floor ${floorRuns.at(-1)?.requestsPerSecond.toFixed(0)} requests/s`);
    appRuns.push(await measure(appTarget, settings));
    progress(`round ${round}/${options.rounds}: app   ${appRuns.at(-1)?.requestsPerSecond.toFixed(0)} requests/s`);
  }
  // The servers stop before the event-store bench, which then has the machine to itself.
  await Promise.all([bare.stop(), floor.stop(), app.stop()]);

  let eventStore: BenchReport['eventStore'] = null;
  if (options.eventStore) {
    progress(`event store: ${options.eventStore.writers} writers for ${options.eventStore.seconds} s`);
    const figures = await benchEventStoreAppends({ url: options.databaseUrl, ...options.eventStore });
    eventStore = { ...figures, ...options.eventStore };
  }

  const [bareMedian, floorMedian, appMedian] = [medianOf(bareRuns), medianOf(floorRuns), medianOf(appRuns)];
  return {
    machine,
    settings: {
      path: options.path,
      key: options.key,
      ...settings,
      rounds: options.rounds,
      logLevel: LOG_LEVEL,
      bodyBytes: Buffer.byteLength(body),
    },
    bare: { median: bareMedian, runs: bareRuns },
    floor: { median: floorMedian, runs: floorRuns },
    app: { median: appMedian, runs: appRuns },
    ratio: appMedian.requestsPerSecond / bareMedian.requestsPerSecond,
    ratioTarget: RATIO_TARGET,
    eventStore,
  };
}

function fillPath(template: string, ids: Record<string, string>): string {
  return template.replace(/\{(\w+)\}/g, (_, name: string) => {
    const id = ids[name];
    if (id === undefined)
      throw new Error(
        `--path: no {${name}} provisioned (known: ${Object.keys(ids).join(', ')}); add it in bench/support/app-server.ts`,
      );
    return encodeURIComponent(id);
  });
}

runBench({
  parse: parseBenchOptions,
  run,
  format: formatReport,
});
