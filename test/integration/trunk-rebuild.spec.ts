import { SETTLE_DEADLINE_MS } from '../support/deadlines';
import { until } from '../support/free-port';
import { readModelNamespace } from '../../src/platform/config/app-config';
import { READ_MODEL_STORE, ReadModelStore } from '../../src/infrastructure/read-model/read-model-store.port';
import { rebuildTogether } from '../../src/eventsourcing/projection-runner';
import { ReadModels } from '../../src/read-models/read-models.service';
import { WebhookReadModels } from '../../src/webhooks/projections/webhook-read-models.service';
import { ApiClient } from '../support/http-client';
import { namespaceSnapshot, RedisTestContext } from '../support/redis';
import { provisionAccountDirect, startTestApp, TEST_REDIS_URL, TestApp } from '../support/test-app';
import { customBody, elevenlabsBody, trunkBody } from '../support/trunk-requests';

/** mulberry32: a seeded PRNG, so a failing sequence can be replayed from the printed seed. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('rebuilding the read models from zero', () => {
  const redisContext = new RedisTestContext('rebuild');
  let app: TestApp;

  beforeAll(async () => {
    app = await startTestApp({ REDIS_URL: TEST_REDIS_URL });
  });
  afterAll(async () => {
    await app.stop();
    await redisContext.teardown();
  });

  it('yields the same read model as the live one after a long random command sequence', async () => {
    const seed = Number(process.env.REBUILD_SEED ?? Date.now() % 1_000_000);
    const random = prng(seed);
    const pick = <T>(items: T[]): T => items[Math.floor(random() * items.length)];
    const accounts: ApiClient[] = [
      (await provisionAccountDirect(app, ['full'], 'A')).client,
      (await provisionAccountDirect(app, ['full'], 'B')).client,
    ];
    const trunks: { id: string; client: ApiClient }[] = [];
    const statuses: number[] = [];
    for (let step = 0; step < 150; step++) {
      const roll = random();
      if (trunks.length < 3 || roll < 0.3) {
        const client = pick(accounts);
        const body = pick([trunkBody, elevenlabsBody, customBody])();
        const response = await client.post('/v1/trunks', body);
        statuses.push(response.status);
        if (response.status === 201) trunks.push({ id: response.body.id, client });
        continue;
      }
      const target = pick(trunks);
      const response =
        roll < 0.6
          ? await target.client.patch(
              `/v1/trunks/${target.id}`,
              pick([
                { name: `N ${step}` },
                { status: pick(['active', 'inactive']) },
                { system_prompt: `p${step}` },
                { allowed_addresses: ['192.0.2.0/24'] },
                { vad: null },
              ]),
            )
          : roll < 0.8
            ? await target.client.post(`/v1/trunks/${target.id}/rotate-password`)
            : await target.client.delete(`/v1/trunks/${target.id}`);
      statuses.push(response.status);
      if (roll >= 0.8 && response.status === 204) trunks.splice(trunks.indexOf(target), 1);
    }
    expect({ seed, unexpected: statuses.filter((s) => ![200, 201, 204].includes(s)) }).toEqual({
      seed,
      unexpected: [],
    });

    const redis = await redisContext.client();
    const namespace = readModelNamespace(app.config);
    // Every runner sharing the read-model store is rebuilt, as `npm run projections:rebuild` does.
    const runners = [app.running.app.get(ReadModels).runner, app.running.app.get(WebhookReadModels).runner];
    const caughtUp = async () =>
      (await Promise.all(runners.map((runner) => runner.status()))).every((status) => status.caughtUp);
    // The live view once every runner has applied every event (a busy machine may lag behind the writes).
    await until('the live read models caught up', caughtUp, SETTLE_DEADLINE_MS);
    const live = await namespaceSnapshot(redis, namespace);
    expect(Object.keys(live).filter((k) => k.startsWith('trunk:')).length).toBeGreaterThan(0);
    await rebuildTogether(app.running.app.get<ReadModelStore>(READ_MODEL_STORE), runners);
    await until('the rebuilt read models caught up', caughtUp, SETTLE_DEADLINE_MS);
    expect(await namespaceSnapshot(redis, namespace)).toEqual(live);
  });
});
