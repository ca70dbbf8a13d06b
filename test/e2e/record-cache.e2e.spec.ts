import { randomBytes } from 'node:crypto';
import { ApiClient } from '../support/http-client';
import type { ServiceProcess } from '../support/service-process';
import { SharedStores } from '../support/shared-stores';
import { trunkBody } from '../support/trunk-requests';

/** Write-then-read rounds per direction and kind of write. */
const ROUNDS = 12;

interface Instance {
  service: ServiceProcess;
  admin: ApiClient;
}

/**
 * Two instances with record copies (RECORD_CACHE_TTL_MS a minute, so that only a drop can end a
 * copy during the test) on one event store and one Redis. Each round first reads through B, so B
 * holds a copy, then writes through A, then reads through B at once: the read must show the
 * write. Rounds alternate which instance writes, so both the projection leader and the other
 * instance write and read. Reads that the gate answers from a copy: GET /v1/trunks/{id} and the
 * gateway lookup (a gateway key's lookup counts in a bucket its answer decides, read from the
 * copy too).
 */
describe('per-instance record copies: a write through one instance is never read stale through another', () => {
  const stores = new SharedStores('rcache');
  const instances: Instance[] = [];

  beforeAll(async () => {
    const start = async () => {
      const service = await stores.start({ RECORD_CACHE_TTL_MS: '60000', CREDENTIAL_CACHE_TTL_MS: '60000' });
      instances.push({ service, admin: new ApiClient(service.origin, service.ca, stores.adminKey) });
    };
    await start(); // the first one creates the event-store schema alone
    await start();
  });

  afterAll(async () => {
    for (const instance of instances) {
      await instance.admin.close();
      instance.service.child.kill('SIGTERM');
      await instance.service.exited;
    }
    await stores.teardown();
  });

  /** [writer, reader] for a round: each instance writes in every other round. */
  const pair = (round: number): [Instance, Instance] =>
    round % 2 === 0 ? [instances[0], instances[1]] : [instances[1], instances[0]];

  async function accountKeys(): Promise<{ full: string; keyId: string; gateway: string }> {
    const admin = instances[0].admin;
    const account = await admin.post('/v1/accounts', { name: `Acme ${randomBytes(3).toString('hex')}` });
    const full = await admin.post('/v1/api-keys', { account_id: account.body.id, name: 'full', scopes: ['full'] });
    const gateway = await admin.post('/v1/api-keys', { name: 'sip gateway', scopes: ['gateway'] });
    expect([account.status, full.status, gateway.status]).toEqual([201, 201, 201]);
    return { full: full.body.key, keyId: full.body.id, gateway: gateway.body.key };
  }

  it('shows every rename and password rotation at once through the other instance', async () => {
    const keys = await accountKeys();
    const body = trunkBody();
    const created = await instances[0].admin.withKey(keys.full).post('/v1/trunks', body);
    expect(created.status).toBe(201);
    const trunk = `/v1/trunks/${created.body.id}`;
    const lookup = `/v1/gateway/trunks/${body.sip_username as string}`;
    const seen: unknown[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const [writer, reader] = pair(round);
      const read = reader.admin.withKey(keys.full);
      const gateway = reader.admin.withKey(keys.gateway);
      const [warmTrunk, warmLookup] = [await read.get(trunk), await gateway.get(lookup)];
      expect([warmTrunk.status, warmLookup.status]).toEqual([200, 200]);

      const name = `Round ${round} ${randomBytes(3).toString('hex')}`;
      expect((await writer.admin.withKey(keys.full).patch(trunk, { name })).status).toBe(200);
      const renamed = await read.get(trunk);
      const rotated = await writer.admin.withKey(keys.full).post(`${trunk}/rotate-password`);
      expect(rotated.status).toBe(200);
      const after = await gateway.get(lookup);
      seen.push([renamed.status, renamed.body.name === name, after.status, after.body.ha1 !== warmLookup.body.ha1]);
    }
    expect(seen).toEqual(Array(ROUNDS).fill([200, true, 200, true]));
  });

  it('shows every deletion, and every trunk created under a user name looked up before, at once through the other instance', async () => {
    const keys = await accountKeys();
    const seen: unknown[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const [writer, reader] = pair(round);
      const read = reader.admin.withKey(keys.full);
      const gateway = reader.admin.withKey(keys.gateway);
      const body = trunkBody();
      const lookup = `/v1/gateway/trunks/${body.sip_username as string}`;
      // Not there yet: the reader copies the miss.
      const missing = await gateway.get(lookup);
      const created = await writer.admin.withKey(keys.full).post('/v1/trunks', body);
      expect(created.status).toBe(201);
      const found = await gateway.get(lookup);
      const trunk = `/v1/trunks/${created.body.id}`;
      expect((await read.get(trunk)).status).toBe(200);
      expect((await writer.admin.withKey(keys.full).delete(trunk)).status).toBe(204);
      const [gone, goneLookup] = [await read.get(trunk), await gateway.get(lookup)];
      // A deleted trunk's gateway record stays, marked deleted, so that gateways evict it.
      seen.push([missing.status, found.status, gone.status, goneLookup.status, goneLookup.body.status]);
    }
    expect(seen).toEqual(Array(ROUNDS).fill([404, 200, 404, 200, 'deleted']));
  });

  it('refuses every key revoked through one instance at once through the other', async () => {
    const seen: unknown[] = [];
    for (let round = 0; round < ROUNDS / 2; round++) {
      const [writer, reader] = pair(round);
      const keys = await accountKeys();
      const created = await writer.admin.withKey(keys.full).post('/v1/trunks', trunkBody());
      const trunk = `/v1/trunks/${created.body.id}`;
      const before = await reader.admin.withKey(keys.full).get(trunk);
      expect((await writer.admin.delete(`/v1/api-keys/${keys.keyId}`)).status).toBe(204);
      const after = await reader.admin.withKey(keys.full).get(trunk);
      seen.push([before.status, after.status]);
    }
    expect(seen).toEqual(Array(ROUNDS / 2).fill([200, 401]));
  });
});
