import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { ApiClient } from '../support/http-client';
import { testDatabaseUrl, uniqueSchemaName } from '../support/postgres';
import { RedisTestContext, testRedisUrl } from '../support/redis';
import { ServiceProcess, startServiceProcess } from '../support/service-process';
import { trunkBody } from '../support/trunk-requests';

const ADMIN = `sk_live_${randomBytes(24).toString('hex').slice(0, 32)}`;
/** SHUTDOWN_ROUNDS=n: how many times three instances are started, loaded and stopped together. */
const ROUNDS = Math.max(1, Number(process.env.SHUTDOWN_ROUNDS ?? 3));

/**
 * Regression (found by a busy CI run): instances sharing Redis hung on SIGTERM under load until
 * the 30 s shutdown deadline exited them with 1. Three instances on one event store and one
 * Redis take writes and reads on all of them, then all get SIGTERM at once, in several rounds:
 * each must exit 0 by itself, and no stop may overrun into the deadline's "still running" line
 * (which names the shutdown hooks it was waiting for).
 */
describe('three instances sharing Redis, stopped together under traffic', () => {
  const schema = uniqueSchemaName('shutdown');
  const redisContext = new RedisTestContext('shutdown-under-load');
  const namespace = redisContext.namespace();
  const masterKey = randomBytes(32).toString('base64');
  let pg: Client;

  beforeAll(async () => {
    pg = new Client({ connectionString: testDatabaseUrl() });
    await pg.connect();
  });

  afterAll(async () => {
    await pg.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await pg.end();
    await redisContext.teardown();
  });

  const start = async (): Promise<{ service: ServiceProcess; dataDir: string }> => {
    const dataDir = mkdtempSync(join(tmpdir(), 'trunkline-shutdown-'));
    const service = await startServiceProcess({
      DATA_DIR: dataDir,
      EVENT_STORE_URL: testDatabaseUrl(),
      EVENT_STORE_SCHEMA: schema,
      REDIS_URL: testRedisUrl(),
      REDIS_NAMESPACE: namespace,
      MASTER_KEY: masterKey,
      ADMIN_API_KEY: ADMIN,
      PROVIDER_VALIDATION: 'format',
    });
    return { service, dataDir };
  };

  it.each(Array.from({ length: ROUNDS }, (_, i) => [i + 1]))('round %i: every instance exits 0 by itself', async () => {
    const first = await start(); // the first creates the event-store schema alone
    const instances = [first, ...(await Promise.all([start(), start()]))];
    const clients = instances.map(({ service }) => new ApiClient(service.origin, service.ca, ADMIN));
    try {
      const account = await clients[0].post('/v1/accounts', { name: 'Shutdown' });
      expect(account.status).toBe(201);
      const key = await clients[0].post('/v1/api-keys', { account_id: account.body.id, name: 'k', scopes: ['full'] });
      expect(key.status).toBe(201);
      // Traffic on every instance: trunk writes (appends, read-your-writes waits) and reads.
      let stopping = false;
      const load = clients.map(async (client) => {
        const writer = client.withKey(key.body.key);
        while (!stopping) {
          await writer.post('/v1/trunks', trunkBody()).catch(() => undefined);
          await writer.get('/v1/trunks').catch(() => undefined);
        }
      });
      await new Promise((resolve) => setTimeout(resolve, 1500));
      for (const { service } of instances) service.child.kill('SIGTERM');
      const codes = await Promise.all(instances.map(({ service }) => service.exited));
      stopping = true;
      await Promise.all(load);
      const overran = instances.map(({ service }) => /shutdown still running.*$/m.exec(service.output())?.[0] ?? null);
      expect(overran).toEqual([null, null, null]);
      expect(codes).toEqual([0, 0, 0]);
    } finally {
      await Promise.all(clients.map((client) => client.close()));
      for (const { service, dataDir } of instances) {
        service.child.kill('SIGKILL');
        await service.exited;
        rmSync(dataDir, { recursive: true, force: true });
      }
    }
  });
});
