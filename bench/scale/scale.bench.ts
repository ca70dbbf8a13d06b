import { randomBytes } from 'node:crypto';
import { progress, runBench } from '../lib/bench-main';
import { ndjsonBodies, recordsOf } from '../lib/call-records';
import { Cleanups } from '../lib/cleanups';
import { measure } from '../lib/http-load';
import { describeMachine } from '../lib/machine';
import { sendAll } from '../lib/ndjson-load';
import { parseBenchArgs, STORES_NOTE, storeUrls } from '../lib/options';
import { type AppEnv, startApp, throwawayStores } from '../lib/start-app';
import { checkCounts } from './scale-checks';
import { formatScaleReport, type ScaleReport, type ScaleStep } from './scale-report';

/*
 * What N instances of the service do together on this machine, N = 1, 2, 3 in one run: all on one
 * PostgreSQL event store schema and one Redis namespace (throwaway, removed at the end), started
 * one more per step. Per step: authenticated GET /v1/trunks req/s (autocannon on every instance at
 * once, the connections split between them) and ingestion records/s (NDJSON bodies spread over
 * the instances). Each instance ingests into its own embedded chDB: no ClickHouse server runs
 * here, so each chDB stands in for a shard. After the run: every record is counted exactly once
 * over all instances, and every event was applied once to the shared read models.
 */
const BODY_RECORDS = 1000;
const COMMAND = {
  script: 'scale/scale.bench.js',
  options: {
    seconds: { type: 'integer', default: 8, help: 'measured GET seconds per step' },
    connections: { type: 'integer', default: 24, help: 'GET connections, split over the instances' },
    records: { type: 'integer', default: 30_000, help: 'records ingested per step' },
    instances: { type: 'integer', default: 3, help: 'instances at the last step' },
  },
  notes: [STORES_NOTE],
} as const;

type Options = ReturnType<typeof parse>;
const parse = (argv: string[]) => ({ ...parseBenchArgs(argv, COMMAND), ...storeUrls() });

interface Instance {
  origin: string;
  ca: string;
  cpuMicros: () => Promise<number>;
}

async function run(options: Options, cleanups: Cleanups): Promise<ScaleReport> {
  const machine = await describeMachine(options.databaseUrl, options.redisUrl);
  // Every instance shares the stores, the master key and the admin key; each has its own data dir.
  const shared: AppEnv = {
    ...throwawayStores(options, cleanups),
    MASTER_KEY: randomBytes(32).toString('base64'),
    ADMIN_API_KEY: `sk_live_${randomBytes(16).toString('hex')}`,
  };
  const first = await startApp(cleanups, {
    env: shared,
    provision: { account: 'Scale bench', keys: ['full', 'read', 'ingest'], trunks: 5, providers: ['custom'] },
  });
  const account = first.ready.account ?? { id: '', keys: {}, trunks: [] };
  const instanceOf = (ready: { port: number; cert: string }, cpuMicros: () => Promise<number>): Instance => ({
    origin: `https://127.0.0.1:${ready.port}`,
    ca: ready.cert,
    cpuMicros,
  });
  const instances = [instanceOf(first.ready, first.cpuMicros)];
  const readKey = account.keys.read ?? '';
  const steps: ScaleStep[] = [];
  for (let n = 1; n <= options.instances; n++) {
    if (n > 1) {
      const next = await startApp(cleanups, { env: shared });
      instances.push(instanceOf(next.ready, next.cpuMicros));
    }
    progress(`${n} instance(s) listening`);
    const start = (n - 1) * options.records;
    const records = recordsOf(
      { ...spreadOverDay(), trunks: account.trunks, accountId: account.id },
      start,
      options.records,
    );
    steps.push(
      await measureStep(instances, readKey, account.keys.ingest ?? '', ndjsonBodies(records, BODY_RECORDS), options),
    );
    progress(`${n} instance(s): ${steps[n - 1].getPerSecond} GET/s, ${steps[n - 1].ingestPerSecond} records/s`);
  }
  const stores = { ...options, schema: shared.EVENT_STORE_SCHEMA ?? '', namespace: shared.REDIS_NAMESPACE ?? '' };
  return {
    machine,
    options: {
      seconds: options.seconds,
      connections: options.connections,
      records: options.records,
      maxInstances: options.instances,
      bodyRecords: BODY_RECORDS,
    },
    steps,
    checks: await checkCounts(stores, instances, readKey, options.instances * options.records),
  };
}

/** GETs on every instance at once, then the step's bodies spread over the instances. */
async function measureStep(
  instances: Instance[],
  readKey: string,
  ingestKey: string,
  bodies: ReturnType<typeof ndjsonBodies>,
  options: Options,
): Promise<ScaleStep> {
  const n = instances.length;
  const settings = {
    connections: Math.max(1, Math.floor(options.connections / n)),
    seconds: options.seconds,
    warmupSeconds: 2,
  };
  const headers = { authorization: `Bearer ${readKey}` };
  const gets = await Promise.all(
    instances.map((i) =>
      measure({ url: `${i.origin}/v1/trunks?limit=20`, ca: i.ca, headers, cpuMicros: i.cpuMicros }, settings),
    ),
  );
  const started = performance.now();
  const ingests = await Promise.all(
    instances.map((i, k) =>
      sendAll(
        { origin: i.origin, ca: i.ca, key: ingestKey },
        bodies.filter((_, b) => b % n === k),
        Math.max(1, Math.floor(6 / n)),
      ),
    ),
  );
  const seconds = (performance.now() - started) / 1000;
  const total = gets.reduce((sum, g) => sum + g.requests, 0);
  return {
    instances: n,
    getPerSecond: Math.round(gets.reduce((sum, g) => sum + g.requestsPerSecond, 0)),
    getP99Ms: Math.max(...gets.map((g) => g.p99Ms)),
    get2xxShare: total === 0 ? 0 : 1 - gets.reduce((sum, g) => sum + g.non2xx + g.errors, 0) / total,
    ingestPerSecond: Math.round(options.records / seconds),
    ingestP99Ms: Math.max(...ingests.map((s) => s.p99Ms)),
  };
}

/** The last day, as the records' time range. */
function spreadOverDay(): { seed: number; fromMs: number; toMs: number } {
  const toMs = Date.now();
  return { seed: 7, fromMs: toMs - 86_400_000, toMs };
}

runBench({ parse, run, format: formatScaleReport });
