import type { Redis } from 'ioredis';
import type { ClickHouseExecutor } from '../../src/infrastructure/clickhouse/clickhouse.port';
import type { EventStore, GlobalPosition } from '../../src/infrastructure/event-store/event-store.port';
import { RedisReadModelStore } from '../../src/infrastructure/read-model/redis.read-model-store';
import type { SecretBox } from '../../src/infrastructure/secrets/secret-box.port';
import { TrunkDimensionProjector } from '../../src/trunks/projections/trunk-dimension.projector';
import { ProjectionRunner, rebuildTogether } from '../../src/eventsourcing/projection-runner';
import { buildReadModelProjections, READ_MODELS_RUNNER } from '../../src/read-models/read-model-projections';
import { readModelsInWorker, type ReadModelsWorkerStores } from '../../src/cli/read-models-worker';
import { webhookProjections } from '../../src/webhooks/projections/webhook-read-models.service';

export interface Timed {
  events: number;
  seconds: number;
  eventsPerSecond: number;
  /** CPU time of the whole process (every thread, user + system) over the run. */
  cpuSeconds: number;
}

const timed = (events: number, started: bigint, cpu: NodeJS.CpuUsage): Timed => {
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const used = process.cpuUsage(cpu);
  return {
    events,
    seconds,
    eventsPerSecond: Math.round(events / seconds),
    cpuSeconds: (used.user + used.system) / 1e6,
  };
};

/** The baseline: every event read through the store's readAll, page after page, and nothing else. */
export async function pagedRead(store: EventStore, page: number): Promise<Timed & { last: GlobalPosition | null }> {
  const cpu = process.cpuUsage();
  const started = process.hrtime.bigint();
  let after: GlobalPosition | null = null;
  let events = 0;
  for (;;) {
    const batch = await store.readAll({ after, maxCount: page });
    if (batch.length === 0) break;
    events += batch.length;
    after = batch[batch.length - 1].position;
  }
  return { ...timed(events, started, cpu), last: after };
}

export interface RebuildTargets {
  events: EventStore;
  secrets: SecretBox;
  redis: Redis;
  namespace: string;
  clickhouse: ClickHouseExecutor;
  sipDomain: string;
  /** Given: the read-model runner replays in a worker thread on these connections (null: in this thread). */
  worker: Omit<ReadModelsWorkerStores, 'namespace' | 'sipDomain'> | null;
}

/** Far beyond any run: the rebuild is awaited to the end, however slow. */
const CATCH_UP_TIMEOUT_MS = 3_600_000;

/**
 * What `npm run projections:rebuild` does, plus the ClickHouse trunk dimension: every runner of
 * the Redis read models rebuilt together from an empty namespace and the dimension from an empty
 * table, timed from the start until each has applied the last event of the store. With
 * `worker`, the read-model runner replays in a worker thread, as the CLI does on a server store.
 */
export async function rebuildAll(
  targets: RebuildTargets,
  total: number,
  last: GlobalPosition,
  batchSize: number,
): Promise<Timed> {
  const store = new RedisReadModelStore(targets.redis, targets.namespace);
  const projections = buildReadModelProjections(targets.secrets, targets.sipDomain);
  const readModels = new ProjectionRunner(READ_MODELS_RUNNER, projections, store, targets.events, { batchSize });
  const runners = [
    readModels,
    new ProjectionRunner('webhooks', webhookProjections(), store, targets.events, { batchSize }),
  ];
  const { namespace, sipDomain } = targets;
  const elsewhere = targets.worker ? [readModelsInWorker(readModels, { ...targets.worker, namespace, sipDomain })] : [];
  const dimension = new TrunkDimensionProjector(targets.events, targets.clickhouse, { batchSize });
  const cpu = process.cpuUsage();
  const started = process.hrtime.bigint();
  try {
    // The dimension's table is new (embedded chDB in a temp dir): it is rebuilt from the start too.
    await rebuildTogether(store, runners, [dimension], elsewhere);
    const reached = await Promise.all([
      ...runners.map((runner) => runner.waitFor(last, CATCH_UP_TIMEOUT_MS)),
      dimension.waitFor(last, CATCH_UP_TIMEOUT_MS),
    ]);
    if (!reached.every(Boolean)) throw new Error('a projection did not catch up');
    return timed(total, started, cpu);
  } finally {
    await Promise.all([...runners.map((runner) => runner.stop()), dimension.stop()]);
  }
}
