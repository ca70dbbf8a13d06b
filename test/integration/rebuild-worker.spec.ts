import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import { seedHistory } from '../../bench/rebuild/rebuild-seed';
import { readModelsInWorker } from '../../src/cli/read-models-worker';
import { ProjectionRunner, rebuildTogether } from '../../src/eventsourcing/projection-runner';
import { createEventStore } from '../../src/infrastructure/event-store/event-store.factory';
import {
  comparePositions,
  type EventStore,
  type GlobalPosition,
} from '../../src/infrastructure/event-store/event-store.port';
import { RedisReadModelStore } from '../../src/infrastructure/read-model/redis.read-model-store';
import { createKeyVault } from '../../src/infrastructure/secrets/key-vault.factory';
import { AesGcmSecretBox } from '../../src/infrastructure/secrets/secret-box';
import { buildReadModelProjections, READ_MODELS_RUNNER } from '../../src/read-models/read-model-projections';
import { webhookProjections } from '../../src/webhooks/projections/webhook-read-models.service';
import { SETTLE_DEADLINE_MS } from '../support/deadlines';
import { useIsolatedSchema } from '../support/postgres';
import { namespaceSnapshot, RedisTestContext, testRedisUrl } from '../support/redis';
import { visible } from '../support/visible-events';

const { url, schema } = useIsolatedSchema('rebuild_worker');
const SIP_DOMAIN = 'sip.test';
/** Pages of 250: the seeded history spans many pages, each read ahead of the one applied. */
const PAGE = 250;

describe('a rebuild with the read-model runner in a worker thread (PostgreSQL)', () => {
  const redisContext = new RedisTestContext('rebuild-worker');
  const masterKey = randomBytes(32);
  const dataDir = mkdtempSync(join(tmpdir(), 'trunkline-rebuild-worker-'));
  let events: EventStore;
  let redis: Redis;
  let last: GlobalPosition;

  beforeAll(async () => {
    events = await createEventStore({ url, schema, dataDir, poolSize: 6 });
    const secrets = new AesGcmSecretBox(masterKey, await createKeyVault(events));
    // Accounts, keys, trunks created, changed, password-rotated and deleted, by the real deciders.
    let seeded: GlobalPosition | null = null;
    const onAppended = (position: GlobalPosition) => {
      if (seeded === null || comparePositions(position, seeded) > 0) seeded = position;
    };
    await seedHistory(events, secrets, { events: 3000, writers: 4, chunk: 4, onAppended });
    // The end of the seeded history, once readers see all of it (another client's open
    // transaction on the shared PostgreSQL can hide the last appends for a while): both rebuilds
    // then replay the same history.
    last = seeded!;
    await visible(events, last);
    redis = await redisContext.client();
  });
  afterAll(async () => {
    await events.close();
    await redisContext.teardown();
    rmSync(dataDir, { recursive: true, force: true });
  });

  /**
   * The read-model and webhook runners rebuilt into a fresh namespace, the read models in a worker
   * (`worker`: where it finds its Redis) or not. With a worker that is expected to succeed, the
   * runner in this thread cannot decrypt: had it replayed anything itself, it could not reach
   * the end, so what the worker wrote is what is compared.
   */
  async function rebuild(
    worker: { redisUrl: string; fails: boolean } | null,
  ): Promise<{ namespace: string; error?: Error }> {
    const namespace = redisContext.namespace();
    const store = new RedisReadModelStore(redis, namespace);
    const secrets =
      worker && !worker.fails
        ? { decrypt: () => Promise.reject(new Error('the main thread replayed what the worker should have')) }
        : new AesGcmSecretBox(masterKey, await createKeyVault(events));
    const options = { batchSize: PAGE };
    const projections = buildReadModelProjections(secrets, SIP_DOMAIN);
    const readModels = new ProjectionRunner(READ_MODELS_RUNNER, projections, store, events, options);
    const runners = [readModels, new ProjectionRunner('webhooks', webhookProjections(), store, events, options)];
    const stores = { eventStoreUrl: url, eventStoreSchema: schema, namespace, sipDomain: SIP_DOMAIN, masterKey };
    const elsewhere = worker ? [readModelsInWorker(readModels, { ...stores, redisUrl: worker.redisUrl })] : [];
    try {
      const error = await rebuildTogether(store, runners, [], elsewhere).then(
        () => undefined,
        (failure: Error) => failure,
      );
      // After the replay (or its failure) each runner follows on its own, up to the last event.
      const reached = await Promise.all(runners.map((runner) => runner.waitFor(last, SETTLE_DEADLINE_MS)));
      expect(reached).toEqual([true, true]);
      return { namespace, error };
    } finally {
      await Promise.all(runners.map((runner) => runner.stop()));
    }
  }

  it('writes the same read models and checkpoints as the rebuild in one thread', async () => {
    const inThread = await namespaceSnapshot(redis, (await rebuild(null)).namespace);
    const throughWorker = await namespaceSnapshot(
      redis,
      (await rebuild({ redisUrl: testRedisUrl(), fails: false })).namespace,
    );
    const keys = Object.keys(inThread);
    // Trunk views, gateway records (HA1 of each decrypted password) and both checkpoints are there.
    expect(keys.filter((key) => key.startsWith('trunk:')).length).toBeGreaterThan(10);
    expect(keys).toEqual(expect.arrayContaining([`checkpoint:${READ_MODELS_RUNNER}`, 'checkpoint:webhooks']));
    expect(throughWorker).toEqual(inThread);
  });

  it("throws the worker's failure, then every runner follows on from its checkpoint", async () => {
    // Nothing listens on port 1: the worker cannot reach its Redis and fails; the runner's own
    // subscription then replays the read models (rebuild() waits for both runners to reach the end).
    const { namespace, error } = await rebuild({ redisUrl: 'redis://127.0.0.1:1', fails: true });
    expect(error?.message).toMatch(/^read-model rebuild worker: /);
    const keys = Object.keys(await namespaceSnapshot(redis, namespace));
    expect(keys.filter((key) => key.startsWith('trunk:')).length).toBeGreaterThan(10);
  });
});
