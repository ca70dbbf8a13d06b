import { ApiClient } from '../support/http-client';
import { SharedStores } from '../support/shared-stores';
import { trunkBody } from '../support/trunk-requests';

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
  const stores = new SharedStores('shutdown');

  afterAll(() => stores.teardown());

  it.each(Array.from({ length: ROUNDS }, (_, i) => [i + 1]))('round %i: every instance exits 0 by itself', async () => {
    const first = await stores.start(); // the first creates the event-store schema alone
    const instances = [first, ...(await Promise.all([stores.start(), stores.start()]))];
    const clients = instances.map((service) => new ApiClient(service.origin, service.ca, stores.adminKey));
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
      for (const service of instances) service.child.kill('SIGTERM');
      const codes = await Promise.all(instances.map((service) => service.exited));
      stopping = true;
      await Promise.all(load);
      const overran = instances.map((service) => /shutdown still running.*$/m.exec(service.output())?.[0] ?? null);
      expect(overran).toEqual([null, null, null]);
      expect(codes).toEqual([0, 0, 0]);
    } finally {
      await Promise.all(clients.map((client) => client.close()));
      for (const service of instances) {
        service.child.kill('SIGKILL');
        await service.exited;
      }
    }
  });
});
