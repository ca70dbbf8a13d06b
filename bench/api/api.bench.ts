import { accountKeys } from '../../src/accounts/projections/accounts.projection';
import { benchEventStoreAppends } from '../event-store/event-store-appends';
import { type BareServerSpec, startBareServer } from '../lib/bare-baseline';
import { progress, runBench } from '../lib/bench-main';
import { profilerFlags } from '../lib/child-process';
import { Cleanups } from '../lib/cleanups';
import { monotonicMicros, profileFile, type ProfileWindow, summarizeProfileFiles } from '../lib/cpu-profile';
import { alternateRounds, type LoadTarget } from '../lib/http-load';
import { describeMachine } from '../lib/machine';
import { getUntilOk } from '../lib/probe';
import { startApp, throwawayStores } from '../lib/start-app';
import { type ApiBenchOptions, parseApiOptions } from './api-options';
import { type ApiBenchReport, formatApiReport, RATIO_TARGET } from './api-report';

/*
 * The API's cost over a bare Fastify HTTPS server, measured in one run on one machine: the real
 * app (PostgreSQL event store, Redis read models, auth, rate limit, usage counter), a bare server
 * and the floor (the bare server plus the app's Redis round trip) each run in a child process and
 * get the same autocannon load, alternately; then the PostgreSQL event store's append rate.
 * Throwaway schema and Redis namespace, removed at the end.
 */
const LOG_LEVEL = 'warn';

async function run(options: ApiBenchOptions, cleanups: Cleanups): Promise<ApiBenchReport> {
  const machine = await describeMachine(options.databaseUrl, options.redisUrl);
  const stores = throwawayStores(options, cleanups);
  const profile = options.cpuProf ? profileFile('api-app') : undefined;
  const app = await startApp(cleanups, {
    // One trunk, so that --path can name it: /v1/trunks/{trunk_id}, /v1/gateway/trunks/{sip_username}.
    env: { ...stores, LOG_LEVEL, PROVIDER_VALIDATION: 'format' },
    provision: { account: 'Bench Account', keys: ['full'], trunks: 1, providers: ['openai'] },
    execArgv: profilerFlags(options.cpuProf, profile),
  });
  // The app's measured runs, from the CPU samples taken around each (LoadTarget.cpuMicros).
  const windows: ProfileWindow[] = [];
  const { adminKey, account } = app.ready;
  if (!adminKey) throw new Error('expected a fresh event store schema, so that the app generates its admin key');
  const accountKey = account?.keys.full ?? '';
  const accountId = account?.id ?? '';
  const trunkId = account?.trunks[0]?.id ?? '';
  const path = fillPath(options.path, { account_id: accountId, trunk_id: trunkId, sip_username: 'bench-trunk-1' });
  const appTarget: LoadTarget = {
    url: `https://127.0.0.1:${app.ready.port}${path}`,
    ca: app.ready.cert,
    headers: { authorization: `Bearer ${options.key === 'admin' ? adminKey : accountKey}` },
    cpuMicros: measuredWindows(app.cpuMicros, windows),
  };
  const body = await getUntilOk(appTarget.url, appTarget.ca, appTarget.headers);
  const spec: BareServerSpec = {
    cert: app.ready.cert,
    key: app.ready.key,
    route: options.path.replace(/\{(\w+)\}/g, ':$1'),
    body,
  };
  const bare = await startBareServer(spec, appTarget, cleanups);
  // The floor: the bare server plus the app's one Redis round trip (the record's read).
  const redis: BareServerSpec['redis'] = {
    url: options.redisUrl,
    readKey: `${stores.REDIS_NAMESPACE}rm:${accountKeys.account(accountId)}`,
  };
  const floor = await startBareServer({ ...spec, redis }, appTarget, cleanups);

  const settings = { connections: options.connections, seconds: options.seconds, warmupSeconds: options.warmupSeconds };
  const targets = { bare: bare.target, floor: floor.target, app: appTarget };
  const measured = await alternateRounds(targets, settings, options.rounds);
  // The servers stop before the event-store bench, which then has the machine to itself.
  await Promise.all([bare.stop(), floor.stop(), app.stop()]);

  let eventStore: ApiBenchReport['eventStore'] = null;
  if (options.eventStore) {
    const { writers, seconds } = options.eventStore;
    progress(`event store: ${writers} writers, ${seconds} s`);
    eventStore = {
      writers,
      seconds,
      ...(await benchEventStoreAppends({ url: options.databaseUrl, writers, seconds })),
    };
  }
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
    ...measured,
    ratio: measured.app.median.requestsPerSecond / measured.bare.median.requestsPerSecond,
    ratioTarget: RATIO_TARGET,
    eventStore,
    ...(profile && { cpuProfile: summarizeProfileFiles([{ file: profile, windows }]) }),
  };
}

/** Marks the span between each pair of calls: measure() samples the CPU at a run's start and end. */
function measuredWindows(cpuMicros: () => Promise<number>, windows: ProfileWindow[]): () => Promise<number> {
  let from: number | null = null;
  return () => {
    const now = monotonicMicros();
    if (from === null) from = now;
    else {
      windows.push({ fromMicros: from, toMicros: now });
      from = null;
    }
    return cpuMicros();
  };
}

function fillPath(template: string, ids: Record<string, string>): string {
  return template.replace(/\{(\w+)\}/g, (_, name: string) => {
    const id = ids[name];
    if (id === undefined)
      throw new Error(
        `--path: no {${name}} provisioned (known: ${Object.keys(ids).join(', ')}); add it in api.bench.ts`,
      );
    return encodeURIComponent(id);
  });
}

runBench({ parse: parseApiOptions, run, format: formatApiReport });
