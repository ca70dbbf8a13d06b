import type { Redis } from 'ioredis';
import { Client } from 'pg';
import { connectToSchema, useIsolatedSchema } from '../support/postgres';
import { RedisTestContext } from '../support/redis';
import { ApiResponse } from '../support/http-client';
import { provisionAccountDirect, startTestApp, TEST_REDIS_URL, TestApp } from '../support/test-app';
import { elevenlabsBody, trunkBody } from '../support/trunk-requests';

const PASSWORD = 'Known-Sip-Password-7f3a9c';
const OPENAI = `sk-proj-KnownOpenAiKey${'Q'.repeat(30)}`;
const OPENAI_2 = `sk-proj-ReplacedOpenAiKey${'W'.repeat(30)}`;
const ELEVEN = 'KnownElevenLabsKey0123456789abcdef';

/** Every text row of every table in the schema, as JSON. */
async function dumpSchema(pg: Client, schema: string): Promise<string> {
  const tables = await pg.query<{ table_name: string }>(
    'SELECT table_name FROM information_schema.tables WHERE table_schema = $1',
    [schema],
  );
  let out = '';
  for (const { table_name } of tables.rows) {
    const rows = await pg.query(`SELECT * FROM "${schema}"."${table_name}"`);
    out += JSON.stringify(rows.rows);
  }
  return out;
}

async function dumpRedis(redis: Redis, namespace: string): Promise<string> {
  let out = '';
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${namespace}*`, 'COUNT', 500);
    for (const key of keys) {
      const type = await redis.type(key);
      const value =
        type === 'hash'
          ? await redis.hgetall(key)
          : type === 'zset'
            ? await redis.call('ZRANGE', key, '0', '-1')
            : await redis.get(key);
      out += `${key}=${JSON.stringify(value)}\n`;
    }
    cursor = next;
  } while (cursor !== '0');
  return out;
}

describe('secrets appear nowhere (PostgreSQL event store, Redis read models)', () => {
  const { url, schema } = useIsolatedSchema('secrets');
  const redisContext = new RedisTestContext('secrets');
  let app: TestApp;

  beforeAll(async () => {
    app = await startTestApp({
      REDIS_URL: TEST_REDIS_URL,
      EVENT_STORE_URL: url,
      EVENT_STORE_SCHEMA: schema,
      MASTER_KEY: Buffer.alloc(32, 9).toString('base64'),
      PROVIDER_VALIDATION: 'format',
      LOG_LEVEL: 'trace',
    });
  });
  afterAll(async () => {
    await app.stop();
    await redisContext.teardown();
  });

  it('keeps known passwords and provider keys out of the event tables, Redis, every response and the logs', async () => {
    const { client } = await provisionAccountDirect(app, ['full']);
    const responses: ApiResponse[] = [];
    const record = <T extends ApiResponse>(r: T) => (responses.push(r), r);
    const created = record(
      await client.post('/v1/trunks', trunkBody({ sip_password: PASSWORD, openai_api_key: OPENAI })),
    );
    const id = created.body.id;
    record(await client.post('/v1/trunks', elevenlabsBody({ sip_password: PASSWORD, elevenlabs_api_key: ELEVEN })));
    record(await client.patch(`/v1/trunks/${id}`, { openai_api_key: OPENAI_2, name: 'Renamed' }));
    const rotated = record(await client.post(`/v1/trunks/${id}/rotate-password`));
    const newPassword = rotated.body.sip_password as string;
    record(await client.get('/v1/trunks'));
    record(await client.get(`/v1/trunks/${id}`));
    record(await client.get(`/v1/trunks/${id}/events`));
    record(await client.get(`/v1/trunks/${id}?as_of=${new Date().toISOString()}`));
    record(await client.delete(`/v1/trunks/${id}`));

    const pg = await connectToSchema(schema, url);
    const redis = await redisContext.client();
    try {
      const places: Record<string, string> = {
        'event store tables': await dumpSchema(pg, schema),
        redis: await dumpRedis(redis, app.config.redisNamespace),
        // The rotation response is the one place the new password may appear, once.
        responses: responses
          .filter((r) => r !== rotated)
          .map((r) => r.text)
          .join('\n'),
        logs: app.logs.join('\n'),
      };
      expect(places['event store tables'].length).toBeGreaterThan(1000);
      expect(places.logs.length).toBeGreaterThan(1000);
      for (const [place, text] of Object.entries(places)) {
        for (const secret of [PASSWORD, OPENAI, OPENAI_2, ELEVEN, newPassword]) {
          expect({ place, found: text.includes(secret) }).toEqual({ place, found: false });
        }
      }
    } finally {
      await pg.end();
    }
  });
});
