import { parentPort, workerData } from 'node:worker_threads';
import { catchUpTogether } from '../eventsourcing/catch-up';
import { ProjectionRunner } from '../eventsourcing/projection-runner';
import { createEventStore } from '../infrastructure/event-store/event-store.factory';
import { RedisReadModelStore } from '../infrastructure/read-model/redis.read-model-store';
import { closeRedisClient, createRedisClient, waitForReady } from '../infrastructure/redis/redis.client';
import { createKeyVault } from '../infrastructure/secrets/key-vault.factory';
import { AesGcmSecretBox } from '../infrastructure/secrets/secret-box';
import { buildReadModelProjections } from '../read-models/read-model-projections';
import type { ReadModelsWorkerData, ReadModelsWorkerReply } from './read-models-worker';

/*
 * A rebuild's read-model runner, in a worker thread (read-models-worker.ts starts it): its own
 * event-store reader (reading the runner's event types only), its own Redis connection, the same
 * projections and checkpoint key as the runner in the main thread, which follows on from here.
 */
async function catchUp(data: ReadModelsWorkerData): Promise<void> {
  // Two connections: the reader and the key vault's; this worker never writes events.
  const events = await createEventStore({
    url: data.eventStoreUrl,
    schema: data.eventStoreSchema,
    dataDir: '',
    poolSize: 2,
  });
  const redis = createRedisClient(data.redisUrl, { connectionName: 'trunkline-rebuild-worker' });
  try {
    await waitForReady(redis, 10_000);
    const masterKey = Buffer.from(data.masterKey.buffer, data.masterKey.byteOffset, data.masterKey.byteLength);
    const secrets = new AesGcmSecretBox(masterKey, await createKeyVault(events));
    masterKey.fill(0); // the secret box keeps its own copy
    const store = new RedisReadModelStore(redis, data.namespace);
    const projections = buildReadModelProjections(secrets, data.sipDomain);
    const runner = new ProjectionRunner(data.runner, projections, store, events, { batchSize: data.pageSize });
    await catchUpTogether(events, [runner], data.pageSize);
  } finally {
    await events.close();
    await closeRedisClient(redis);
  }
}

const reply = (message: ReadModelsWorkerReply): void => parentPort!.postMessage(message);

catchUp(workerData as ReadModelsWorkerData).then(
  () => reply({ done: true }),
  (error: unknown) => reply({ error: error instanceof Error ? error.message : String(error) }),
);
