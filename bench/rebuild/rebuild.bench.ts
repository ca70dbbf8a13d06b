import { randomBytes } from 'node:crypto';
import { createClickHouse } from '../../src/infrastructure/clickhouse/clickhouse.factory';
import { createEventStore } from '../../src/infrastructure/event-store/event-store.factory';
import type { EventStore } from '../../src/infrastructure/event-store/event-store.port';
import { closeRedisClient, createRedisClient, waitForReady } from '../../src/infrastructure/redis/redis.client';
import { createKeyVault } from '../../src/infrastructure/secrets/key-vault.factory';
import { AesGcmSecretBox } from '../../src/infrastructure/secrets/secret-box';
import { CATCH_UP_BATCH_SIZE } from '../../src/eventsourcing/checkpointed-follower';
import { progress, runBench } from '../lib/bench-main';
import { type Cleanups, deleteRedisNamespace, dropSchema, tempDir } from '../lib/cleanups';
import { describeMachine, loadAverageNow } from '../lib/machine';
import { CPU_PROF_OPTION, parseBenchArgs, STORES_NOTE, storeUrls } from '../lib/options';
import { checkRebuilt } from './rebuild-checks';
import { pagedRead, rebuildAll } from './rebuild-measure';
import { profiled } from './rebuild-profile';
import { formatReport, type RebuildReport } from './rebuild-report';
import { seedHistory } from './rebuild-seed';

/*
 * A rebuild of every projection from the start (docs/benchmarks.md): --events realistic events
 * seeded into a throwaway PostgreSQL schema, then in the same run a plain paged read of them
 * through the store (the baseline, before and after) and the rebuild of the Redis read models
 * (throwaway namespace) and the ClickHouse trunk dimension (embedded chDB) until caught up.
 */
const COMMAND = {
  script: 'rebuild/rebuild.bench.js',
  options: {
    events: { type: 'integer', default: 1_000_000, help: 'events seeded and rebuilt from' },
    writers: { type: 'integer', default: 32, help: 'concurrent writers while seeding' },
    chunk: {
      type: 'integer',
      default: 4,
      help: "events of one trunk per append while seeding (a trunk's next changes)",
    },
    batch: {
      type: 'integer',
      default: CATCH_UP_BATCH_SIZE,
      min: 1,
      help: "events per page, for the rebuild's runners (PROJECTION_BATCH_SIZE) and the baseline's paged read alike",
    },
    'read-models': {
      type: 'string',
      default: 'worker',
      pattern: /^(worker|main)$/,
      help: "where the read-model runner replays: 'worker' (a worker thread, as the CLI on PostgreSQL) or 'main'",
    },
    'cpu-prof': {
      ...CPU_PROF_OPTION,
      help: 'write a V8 CPU profile of the rebuild to ./bench-profiles/ and print where its time went',
    },
  },
  notes: [STORES_NOTE],
} as const;

const parse = (argv: string[]) => ({ ...parseBenchArgs(argv, COMMAND), ...storeUrls() });
type Options = ReturnType<typeof parse>;

async function openStore(options: Options, schema: string, cleanups: Cleanups): Promise<EventStore> {
  const dataDir = tempDir(cleanups, 'trunkline-rebuild-bench-');
  const store = await createEventStore({ url: options.databaseUrl, schema, dataDir, poolSize: options.writers + 2 });
  cleanups.add('close the event store', () => store.close());
  return store;
}

async function run(options: Options, cleanups: Cleanups): Promise<RebuildReport> {
  const machine = await describeMachine(options.databaseUrl, options.redisUrl);
  const suffix = randomBytes(5).toString('hex');
  const schema = `bench_rebuild_${suffix}`;
  cleanups.add(`drop schema ${schema}`, () => dropSchema(options.databaseUrl, schema));
  const events = await openStore(options, schema, cleanups);
  const masterKey = randomBytes(32);
  const vault = await createKeyVault(events);
  progress(`seeding ${options.events} events into ${schema}`);
  const seed = await seedHistory(events, new AesGcmSecretBox(masterKey, vault), options);
  progress('paged read (baseline)');
  const first = await pagedRead(events, options.batch);
  if (!first.last || first.events !== options.events)
    throw new Error(`read ${first.events} of ${options.events} events`);
  const namespace = `bench-rebuild-${suffix}:`;
  cleanups.add(
    `delete Redis namespace ${namespace}`,
    async () => void (await deleteRedisNamespace(options.redisUrl, namespace)),
  );
  const redis = createRedisClient(options.redisUrl, { connectionName: 'trunkline-rebuild-bench' });
  cleanups.add('close Redis', () => closeRedisClient(redis));
  await waitForReady(redis, 10_000);
  const clickhouse = await createClickHouse({ url: null, dataDir: tempDir(cleanups, 'trunkline-rebuild-chdb-') });
  cleanups.add('close chDB', () => clickhouse.close());
  // A fresh secret box: the rebuild starts with no data key cached, as after a restart.
  const targets = {
    events,
    secrets: new AesGcmSecretBox(masterKey, vault),
    redis,
    namespace,
    clickhouse,
    sipDomain: 'sip.bench.example',
    worker:
      options.readModels === 'worker'
        ? { eventStoreUrl: options.databaseUrl, eventStoreSchema: schema, redisUrl: options.redisUrl, masterKey }
        : null,
  };
  progress('rebuild of all projections');
  const [rebuild, profile] = await profiled(options.cpuProf, 'rebuild', () =>
    rebuildAll(targets, options.events, first.last!, options.batch),
  );
  progress('paged read again (baseline)');
  const second = await pagedRead(events, options.batch);
  const checks = await checkRebuilt(redis, namespace, clickhouse, seed.byType);
  return {
    machine,
    loadAverageAtEnd: loadAverageNow(),
    page: options.batch,
    seed,
    reads: [first, second],
    rebuild,
    readModels: options.readModels === 'worker' ? 'worker' : 'main',
    checks,
    profile: profile?.files[0] ?? null,
    ...(profile && { cpuProfile: profile }),
  };
}

runBench({ parse, run, format: formatReport });
