import { availableParallelism } from 'node:os';
import { RedisReadModelStore } from '../infrastructure/read-model/redis.read-model-store';
import { closeRedisClient, createRedisClient, waitForReady } from '../infrastructure/redis/redis.client';
import { ConfigError, readModelNamespace } from '../platform/config/app-config';
import { ProjectionRunner, rebuildTogether } from '../eventsourcing/projection-runner';
import { webhookProjections } from '../webhooks/projections/webhook-read-models.service';
import { buildReadModelProjections, READ_MODELS_RUNNER } from '../read-models/read-model-projections';
import { createKeyVault } from '../infrastructure/secrets/key-vault.factory';
import { loadMasterKey } from '../infrastructure/secrets/master-key';
import { AesGcmSecretBox } from '../infrastructure/secrets/secret-box';
import { cliConfig, openEventStore, runCli } from './cli-support';
import { READ_MODELS_THREADS, ReadModelsThread, readModelsInWorker, rebuildInWorker } from './read-models-worker';

/**
 * `npm run projections:rebuild`: drops the Redis read models and replays every event into them.
 * Run it with the service stopped (or accept that reads are empty until it finishes); with the
 * embedded event store it refuses to run beside the server (data-directory lock). In-memory
 * read models need no rebuild: they are rebuilt at every start. With a server event store and a
 * core to spare (REBUILD_READ_MODELS_THREAD, auto by default) the read-model runner replays in a
 * worker thread (its own connections) while this thread reads and applies the webhook runner;
 * embedded PGlite can be read from this thread only.
 */
async function main(): Promise<void> {
  const config = cliConfig('projections:rebuild', 'stop the server first');
  const thread = threadChoice();
  if (!config.redisUrl) {
    process.stdout.write(
      'REDIS_URL is not set: the read models live in memory and are rebuilt at every start. Nothing to do.\n',
    );
    return;
  }
  const redis = createRedisClient(config.redisUrl, { connectionName: 'trunkline-rebuild' });
  await waitForReady(redis, 10_000);
  const events = await openEventStore(config);
  const store = new RedisReadModelStore(redis, readModelNamespace(config));
  const masterKey = await loadMasterKey({
    masterKey: config.masterKey,
    dataDir: config.dataDir,
    embedded: !config.eventStoreUrl,
  });
  const secrets = new AesGcmSecretBox(masterKey, await createKeyVault(events));
  // Every runner writing into the read-model store, rebuilt together: the clear is store-wide.
  const options = { batchSize: config.projectionBatchSize };
  const readModels = new ProjectionRunner(
    READ_MODELS_RUNNER,
    buildReadModelProjections(secrets, config.sipDomain),
    store,
    events,
    options,
  );
  const runners = [readModels, new ProjectionRunner('webhooks', webhookProjections(), store, events, options)];
  const elsewhere = rebuildInWorker(thread, config.eventStoreUrl, availableParallelism())
    ? [
        readModelsInWorker(readModels, {
          eventStoreUrl: config.eventStoreUrl!,
          eventStoreSchema: config.eventStoreSchema,
          redisUrl: config.redisUrl,
          namespace: readModelNamespace(config),
          sipDomain: config.sipDomain,
          masterKey,
        }),
      ]
    : [];
  const started = Date.now();
  try {
    await rebuildTogether(store, runners, [], elsewhere);
    for (;;) {
      const statuses = await Promise.all(runners.map((runner) => runner.status()));
      if (statuses.every((status) => status.caughtUp)) {
        const checkpoints = statuses.map((status) => `${status.name} ${status.checkpoint ?? '(no events)'}`).join(', ');
        process.stdout.write(`rebuilt read models in ${Date.now() - started} ms; checkpoints: ${checkpoints}\n`);
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  } finally {
    await Promise.all(runners.map((runner) => runner.stop()));
    await events.close();
    await closeRedisClient(redis);
  }
}

/** REBUILD_READ_MODELS_THREAD: auto (default), worker or main (src/cli/read-models-worker.ts). */
function threadChoice(): ReadModelsThread {
  const raw = (process.env.REBUILD_READ_MODELS_THREAD ?? 'auto').trim().toLowerCase() || 'auto';
  if (!(READ_MODELS_THREADS as readonly string[]).includes(raw)) {
    throw new ConfigError([`REBUILD_READ_MODELS_THREAD must be auto, worker or main (got ${raw})`]);
  }
  return raw as ReadModelsThread;
}

runCli('projections:rebuild', main);
