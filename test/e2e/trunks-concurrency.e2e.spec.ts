import { ApiClient } from '../support/http-client';
import { useIsolatedSchema } from '../support/postgres';
import { provisionAccountDirect, startTestApp, TEST_REDIS_URL, TestApp } from '../support/test-app';
import { trunkBody } from '../support/trunk-requests';

/** On the PostgreSQL event store, where concurrent transactions really race. */
describe('trunks under concurrency (PostgreSQL event store, Redis)', () => {
  const { url, schema } = useIsolatedSchema('trunks_conc');
  let app: TestApp;
  let client: ApiClient;

  beforeAll(async () => {
    app = await startTestApp({
      REDIS_URL: TEST_REDIS_URL,
      EVENT_STORE_URL: url,
      EVENT_STORE_SCHEMA: schema,
      MASTER_KEY: Buffer.alloc(32, 7).toString('base64'),
      PROVIDER_VALIDATION: 'format',
    });
    ({ client } = await provisionAccountDirect(app, ['full']));
  });
  afterAll(() => app.stop());

  it('gives exactly one 201 and 19 409 conflict for 20 parallel creates of one sip_username', async () => {
    const username = trunkBody().sip_username;
    const responses = await Promise.all(
      Array.from({ length: 20 }, () => client.post('/v1/trunks', trunkBody({ sip_username: username }))),
    );
    const statuses = responses.map((r) => r.status).sort();
    expect(statuses).toEqual([201, ...Array(19).fill(409)]);
    const list = await client.get('/v1/trunks?limit=100');
    expect(list.body.trunks.filter((t: { sip_username: string }) => t.sip_username === username)).toHaveLength(1);
  });

  it('gives exactly one 201 for 20 parallel creates of one name', async () => {
    const name = `Shared ${Date.now()}`;
    const responses = await Promise.all(
      Array.from({ length: 20 }, () => client.post('/v1/trunks', trunkBody({ name }))),
    );
    expect(responses.filter((r) => r.status === 201)).toHaveLength(1);
    expect(responses.filter((r) => r.status === 409)).toHaveLength(19);
  });

  it('loses no update among 50 parallel PATCH and rotate calls: the read model equals a replay of the events', async () => {
    const { id } = (await client.post('/v1/trunks', trunkBody())).body;
    const calls = Array.from({ length: 50 }, (_, i) =>
      i % 5 === 0
        ? client.post(`/v1/trunks/${id}/rotate-password`)
        : client.patch(
            `/v1/trunks/${id}`,
            i % 2 ? { system_prompt: `prompt ${i}` } : { vad: { silence_duration_ms: i } },
          ),
    );
    const responses = await Promise.all(calls);
    expect(responses.map((r) => r.status)).toEqual(Array(50).fill(200));
    const history = await client.get(`/v1/trunks/${id}/events?limit=100`);
    const types = history.body.events.map((e: { type: string }) => e.type);
    // Every call changed something (distinct values, fresh passwords): one event each.
    expect(types.filter((t: string) => t === 'SipPasswordRotated')).toHaveLength(10);
    expect(types.filter((t: string) => t === 'TrunkUpdated')).toHaveLength(40);
    const live = await client.get(`/v1/trunks/${id}`);
    const replayed = await client.get(`/v1/trunks/${id}?as_of=${new Date(Date.now() + 60_000).toISOString()}`);
    expect(live.body).toEqual(replayed.body);
  });
});
