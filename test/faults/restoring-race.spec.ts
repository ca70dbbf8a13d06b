import type { Redis } from 'ioredis';
import { QueryBus } from '@nestjs/cqrs';
import { GetTrunk } from '../../src/trunks/read/trunk.queries';
import { SETTLE_DEADLINE_MS } from '../support/deadlines';
import { until } from '../support/free-port';
import { ApiResponse } from '../support/http-client';
import { RedisTestContext, deleteNamespace } from '../support/redis';
import { provisionAccount, startTestApp, TestApp, TEST_REDIS_URL } from '../support/test-app';
import { trunkBody } from '../support/trunk-requests';

/**
 * Regression (CI on 57a8689: a 404 for an existing trunk during a restore): the read missed while
 * Redis was being refilled, the replay finished before the answer was sent, and the check at send
 * time saw nothing amiss. The interleaving is forced here: the trunk query, having missed, holds
 * its answer until the replay has brought the trunk back (seen in Redis by the test, not asked of
 * the app), then answers. That 404 must leave as 503 with Retry-After.
 */
describe('a read that missed during a restore that completed before the answer was sent', () => {
  const redisContext = new RedisTestContext('restoring-race');
  let app: TestApp;
  let redis: Redis;

  beforeAll(async () => {
    redis = await redisContext.client();
    // The key stays cached in the process through the restore, so requests reach the trunk query.
    // No record copies: with a copy of the trunk the gate answers 200 from it (the record Redis
    // lost, which the replay brings back) until the new leader has every copy dropped, by when the
    // few events are replayed, so no read would miss; the miss is what this test forces.
    app = await startTestApp({
      REDIS_URL: TEST_REDIS_URL,
      CREDENTIAL_CACHE_TTL_MS: '60000',
      RECORD_CACHE_TTL_MS: '0',
    });
  });

  afterAll(async () => {
    await app?.stop();
    await redisContext.teardown();
  });

  it('answers 503 with Retry-After, not 404', async () => {
    const { client } = await provisionAccount(app);
    const created = await client.post('/v1/trunks', trunkBody());
    expect(created.status).toBe(201);
    expect((await client.get(`/v1/trunks/${created.body.id}`)).status).toBe(200);
    const namespace = app.config.redisNamespace;
    const trunkKeys = async () => (await redis.keys(`${namespace}*${created.body.id}*`)).length;
    const trunkStored = await trunkKeys();
    expect(trunkStored).toBeGreaterThan(0);

    // The hook between the read and the send: a missed GetTrunk waits for the replay to restore the trunk.
    const queries = app.running.app.get(QueryBus);
    const execute = queries.execute.bind(queries);
    const held: string[] = [];
    queries.execute = (async (query: unknown) => {
      try {
        return await execute(query as never);
      } catch (miss) {
        if (!(query instanceof GetTrunk) || query.trunkId !== created.body.id) throw miss;
        held.push((miss as { code?: string }).code ?? String(miss));
        await until(
          'the replay restored the trunk',
          async () => (await trunkKeys()) >= trunkStored,
          SETTLE_DEADLINE_MS,
        );
        throw miss;
      }
    }) as typeof queries.execute;

    try {
      await deleteNamespace(redis, namespace);
      let answer: ApiResponse | undefined;
      // Until one request has gone through the held query (the gate may answer 503 itself first).
      await until(
        'a request through the held trunk query',
        async () => {
          answer = await client.get(`/v1/trunks/${created.body.id}`);
          return held.length > 0;
        },
        SETTLE_DEADLINE_MS,
      );
      expect(held[0]).toBe('not_found');
      expect(answer!.status).toBe(503);
      expect(answer!.headers['retry-after']).toBe('1');
      expect(answer!.body.error).toMatchObject({ code: 'service_unavailable', status: 503 });
    } finally {
      queries.execute = execute;
    }
    // And once restored, the trunk is there again.
    await until(
      'the trunk answers 200 again',
      async () => (await client.get(`/v1/trunks/${created.body.id}`)).status === 200,
      SETTLE_DEADLINE_MS,
    );
  });
});
