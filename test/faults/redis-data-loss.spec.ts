import { SETTLE_DEADLINE_MS } from '../support/deadlines';
import type { Redis } from 'ioredis';
import { ApiResponse } from '../support/http-client';
import { RedisTestContext, deleteNamespace } from '../support/redis';
import { provisionAccount, startTestApp, TestApp, TEST_REDIS_URL } from '../support/test-app';
import { trunkBody } from '../support/trunk-requests';

/**
 * Regression (found by the fault suite): when Redis lost its data (a restart without persistence),
 * every valid key answered 401 until the replay from the event store had brought it back. A key
 * that is missing only for now must get 503 with Retry-After, and then work again by itself.
 */
describe('after Redis lost every key of the service', () => {
  const redisContext = new RedisTestContext('redis-data-loss');
  let app: TestApp;
  let redis: Redis;

  beforeAll(async () => {
    redis = await redisContext.client();
    app = await startTestApp({ REDIS_URL: TEST_REDIS_URL });
  });

  afterAll(async () => {
    await app?.stop();
    await redisContext.teardown();
  });

  it('answers 503 with Retry-After and the rate headers, never 401 or 404, until the replay restored the key and the trunk', async () => {
    const { client } = await provisionAccount(app);
    const created = await client.post('/v1/trunks', trunkBody());
    expect(created.status).toBe(201);

    await deleteNamespace(redis, app.config.redisNamespace);
    const answers: ApiResponse[] = [];
    const started = Date.now();
    while (Date.now() - started < SETTLE_DEADLINE_MS) {
      const answer = await client.get(`/v1/trunks/${created.body.id}`);
      answers.push(answer);
      if (answer.status === 200) break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }

    // The rate headers too: the gate counted each request before it found the key missing.
    const seen = answers.map(
      (a) =>
        `${a.status}${a.status === 503 && a.headers['retry-after'] ? ' with Retry-After' : ''}` +
        `${a.headers['x-ratelimit-reset'] === undefined ? ' without rate headers' : ''}`,
    );
    expect(seen.filter((s) => s !== '200' && s !== '503 with Retry-After')).toEqual([]);
    expect(seen[seen.length - 1]).toBe('200');
    expect(answers[answers.length - 1].body.name).toBe(created.body.name);
  });

  it('answers ingestion for a trunk not replayed yet with 503, never by rejecting the record as unknown_trunk', async () => {
    const { client, accountId } = await provisionAccount(app, ['full'], 'Gateway owner');
    const trunk = await client.post('/v1/trunks', trunkBody());
    expect(trunk.status).toBe(201);
    const gatewayKey = await app.admin.post('/v1/api-keys', {
      account_id: accountId,
      name: 'gateway',
      scopes: ['ingest'],
    });
    const gateway = app.admin.withKey(gatewayKey.body.key);
    const record = {
      id: `call_loss_${Date.now()}`,
      trunk_id: trunk.body.id,
      from: '+14155550100',
      to: '+14155550101',
      status: 'connected',
      start_time: new Date().toISOString(),
    };

    await deleteNamespace(redis, app.config.redisNamespace);
    const seen: string[] = [];
    const started = Date.now();
    while (Date.now() - started < SETTLE_DEADLINE_MS) {
      const answer = await gateway.post('/v1/ingest/calls', [record]);
      seen.push(
        answer.status === 200
          ? `200 accepted ${answer.body.accepted}`
          : `${answer.status}${answer.headers['retry-after'] ? ' with Retry-After' : ''}`,
      );
      if (answer.status === 200) break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }

    expect(seen.filter((s) => s !== '200 accepted 1' && s !== '503 with Retry-After')).toEqual([]);
    expect(seen[seen.length - 1]).toBe('200 accepted 1');
    expect((await client.get(`/v1/calls/${record.id}`)).status).toBe(200);
  });
});
