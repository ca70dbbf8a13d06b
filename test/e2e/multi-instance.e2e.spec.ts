import { SETTLE_DEADLINE_MS } from '../support/deadlines';
import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import { Client } from 'pg';
import { ApiClient, ApiResponse } from '../support/http-client';
import { testDatabaseUrl } from '../support/postgres';
import type { ServiceProcess } from '../support/service-process';
import { SharedStores } from '../support/shared-stores';
import { generateCalls } from '../../bench/lib/calls/call-generator';
import { trunkBody } from '../support/trunk-requests';
import { READ_MODEL_EVENT_TYPES } from '../../src/read-models/read-models.service';

const LIMIT = 40;

interface Instance {
  service: ServiceProcess;
  admin: ApiClient;
  alive: boolean;
}

async function until<T>(
  probe: () => Promise<T | null | undefined | false>,
  what: string,
  limitMs = SETTLE_DEADLINE_MS,
): Promise<T> {
  const started = Date.now();
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() - started > limitMs) throw new Error(`gave up waiting: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * Three instances (child processes) on one PostgreSQL event store (own schema) and one Redis
 * (own namespace). Each has an embedded chDB of its own, which cannot be shared between
 * processes, so calls and analytics are sent to instance 0 only (docs/scaling.md); everything
 * under test here (trunks, keys, limits, projections) is shared.
 */
describe('three instances on one event store and one Redis', () => {
  const stores = new SharedStores('multi');
  const { schema, namespace } = stores;
  let redis: Redis;
  let pg: Client;
  const instances: Instance[] = [];

  beforeAll(async () => {
    redis = await stores.redis.client();
    pg = new Client({ connectionString: testDatabaseUrl() });
    await pg.connect();
    const start = async () => {
      const service = await stores.start({ RATE_LIMIT_PER_MINUTE: String(LIMIT) });
      instances.push({ service, admin: new ApiClient(service.origin, service.ca, stores.adminKey), alive: true });
    };
    await start(); // the first one creates the event-store schema alone
    await Promise.all([start(), start()]);
  });

  afterAll(async () => {
    for (const instance of instances) {
      await instance.admin.close();
      if (instance.alive) instance.service.child.kill('SIGTERM');
      await instance.service.exited;
    }
    await pg.end();
    await stores.teardown();
  });

  const alive = () => instances.filter((i) => i.alive);
  const leaderPid = async (): Promise<number | null> => {
    const value = await redis.get(`${namespace}lease:read-models`);
    return value ? Number(value.split(':')[1]) : null;
  };
  /** An account with one key per scope list; the keys, then their ids. */
  async function account(scopes: string[][], ids: string[] = []): Promise<string[]> {
    const created = await instances[0].admin.post('/v1/accounts', { name: `Acme ${randomBytes(3).toString('hex')}` });
    const keys: string[] = [];
    for (const s of scopes) {
      const issued = await instances[0].admin.post('/v1/api-keys', {
        account_id: created.body.id,
        name: s.join('+'),
        scopes: s,
      });
      keys.push(issued.body.key);
      ids.push(issued.body.id);
    }
    return keys;
  }
  async function appliedAndStored(): Promise<[number, number]> {
    const applied = Number((await redis.hget(`${namespace}rm:projection-stats:read-models`, 'events')) ?? 0);
    const stored = Number(
      (
        await pg.query(`SELECT count(*) AS n FROM "${schema}".events WHERE type = ANY ($1::text[])`, [
          READ_MODEL_EVENT_TYPES,
        ])
      ).rows[0].n,
    );
    return [applied, stored];
  }

  it('elects one leader for the read models among the three', async () => {
    const pid = await until(leaderPid, 'a read-model leader');
    expect(instances.map((i) => i.service.child.pid)).toContain(pid);
  });

  it('makes every acknowledged trunk create readable at once through every other instance', async () => {
    const [writeKey] = await account([['full']]);
    const outcomes = await Promise.all(
      instances.flatMap((writer, w) =>
        [0, 1, 2].map(async () => {
          const created = await writer.admin.withKey(writeKey).post('/v1/trunks', trunkBody());
          const reader = instances[(w + 1) % instances.length];
          const read = await reader.admin.withKey(writeKey).get(`/v1/trunks/${created.body.id}`);
          return [created.status, read.status, read.body?.id === created.body.id];
        }),
      ),
    );
    expect(outcomes).toEqual(Array(9).fill([201, 200, true]));
  });

  it('creates one trunk for one Idempotency-Key sent through all three instances at once', async () => {
    const [writeKey] = await account([['full']]);
    const body = trunkBody();
    const headers = { 'idempotency-key': `multi-${randomBytes(6).toString('hex')}` };
    const responses = await Promise.all(
      [...instances, ...instances].map((i) => i.admin.withKey(writeKey).post('/v1/trunks', body, { headers })),
    );
    expect(responses.map((r) => r.status)).toEqual(Array(6).fill(201));
    expect(new Set(responses.map((r) => r.body.id)).size).toBe(1);
    expect(responses.filter((r) => r.headers['idempotent-replayed'] === 'true')).toHaveLength(5);
    const listed = await instances[1].admin.withKey(writeKey).get('/v1/trunks');
    expect(listed.body.pagination.total).toBe(1);
  });

  it('refuses a key revoked through one instance on every instance at once', async () => {
    const ids: string[] = [];
    const [key] = await account([['read']], ids);
    const listed = await Promise.all(instances.map((i) => i.admin.withKey(key).get('/v1/trunks')));
    expect(listed.map((r) => r.status)).toEqual([200, 200, 200]);
    expect((await instances[1].admin.delete(`/v1/api-keys/${ids[0]}`)).status).toBe(204);
    const after = await Promise.all(instances.map((i) => i.admin.withKey(key).get('/v1/trunks')));
    expect(after.map((r) => [r.status, r.body.error?.code])).toEqual(Array(3).fill([401, 'unauthorized']));
  });

  it('shows a password rotated through one instance, and a deletion through another, on every instance at once', async () => {
    const [fullKey, gatewayKey] = await account([['full'], ['ingest']]);
    const body = trunkBody();
    const trunk = (await instances[0].admin.withKey(fullKey).post('/v1/trunks', body)).body;
    const digest = async (i: Instance) =>
      (await i.admin.withKey(gatewayKey).get(`/v1/gateway/trunks/${body.sip_username}`)).body.ha1;
    const before = await Promise.all(instances.map(digest));
    expect((await instances[1].admin.withKey(fullKey).post(`/v1/trunks/${trunk.id}/rotate-password`)).status).toBe(200);
    const after = await Promise.all(instances.map(digest));
    expect(new Set(before).size).toBe(1);
    expect(after.map((ha1) => typeof ha1 === 'string' && ha1 !== before[0])).toEqual([true, true, true]);
    expect(new Set(after).size).toBe(1);
    expect((await instances[2].admin.withKey(fullKey).delete(`/v1/trunks/${trunk.id}`)).status).toBe(204);
    const gone = await Promise.all(instances.map((i) => i.admin.withKey(fullKey).get(`/v1/trunks/${trunk.id}`)));
    expect(gone.map((r) => r.status)).toEqual([404, 404, 404]);
  });

  it('allows exactly the limit to one key whose requests go through all three instances', async () => {
    for (let attempt = 0; attempt < 3; attempt++) {
      const [key] = await account([['read']]);
      const responses: ApiResponse[] = await Promise.all(
        Array.from({ length: LIMIT + 20 }, (_, i) => instances[i % 3].admin.withKey(key).get('/v1/trunks?limit=1')),
      );
      if (new Set(responses.map((r) => r.headers['x-ratelimit-reset'])).size > 1) continue; // a minute boundary split the burst
      const statuses = responses.map((r) => r.status);
      expect({
        allowed: statuses.filter((s) => s === 200).length,
        refused: statuses.filter((s) => s === 429).length,
      }).toEqual({ allowed: LIMIT, refused: 20 });
      return;
    }
    throw new Error('no burst fitted in one rate-limit window');
  });

  it('ingests and answers analytics on the one instance that owns them, for trunks made through the others', async () => {
    const [fullKey, ingestKey] = await account([['full'], ['ingest']]);
    const trunk = (await instances[2].admin.withKey(fullKey).post('/v1/trunks', trunkBody())).body;
    const records = [
      ...generateCalls({
        count: 200,
        trunkIds: [trunk.id],
        from: new Date(Date.now() - 3_600_000),
        to: new Date(Date.now() - 60_000),
        seed: 3,
      }),
    ];
    const gateway = instances[0].admin.withKey(ingestKey);
    const send = () =>
      gateway.call('POST', '/v1/ingest/calls', {
        rawBody: records.map((r) => JSON.stringify(r)).join('\n'),
        headers: { 'content-type': 'application/x-ndjson' },
      });
    // The trunk is known there at once (shared read model); a re-send replaces, never adds.
    expect([(await send()).body, (await send()).body]).toEqual(Array(2).fill({ accepted: 200, rejected: [] }));
    const reader = instances[0].admin.withKey(fullKey);
    const [calls, overview] = await Promise.all([
      reader.get('/v1/calls?limit=1'),
      reader.get('/v1/analytics/overview?granularity=hourly'),
    ]);
    expect([calls.body.pagination.total, overview.body.summary.total_calls]).toEqual([200, 200]);
  });

  it('applies every event to the read models exactly once', async () => {
    const [applied, stored] = await until(async () => {
      const counts = await appliedAndStored();
      return counts[0] >= counts[1] ? counts : null;
    }, 'the read models to catch up');
    expect(applied).toBe(stored);
  });

  it('hands leadership on when the leader is killed, losing no acknowledged write', async () => {
    const [writeKey, readKey] = await account([['full'], ['read']]);
    const pid = await until(leaderPid, 'a leader');
    const victim = instances.find((i) => i.service.child.pid === pid)!;
    const acknowledged: string[] = [];
    const unreadable: string[] = [];
    let stop = false;
    const writers = instances.map(async (instance) => {
      while (!stop) {
        const response = await instance.admin
          .withKey(writeKey)
          .post('/v1/trunks', trunkBody())
          .catch(() => null);
        if (!response) return; // the killed instance: nothing acknowledged there
        if (response.status === 201) {
          acknowledged.push(response.body.id);
          // Read-your-writes through another live instance, even while leadership moves.
          const other = alive().find((i) => i !== instance && i !== victim) ?? instance;
          const read = await other.admin.withKey(readKey).get(`/v1/trunks/${response.body.id}`);
          if (read.status !== 200) unreadable.push(`${response.body.id}: ${read.status}`);
        }
        await new Promise((resolve) => setTimeout(resolve, 150));
      }
    });
    await until(async () => acknowledged.length >= 3, 'writes before the kill');
    const killedAt = Date.now();
    const beforeKill = acknowledged.length;
    victim.service.child.kill('SIGKILL');
    victim.alive = false;
    await victim.service.exited;
    const successor = await until(async () => {
      const next = await leaderPid();
      return next !== null && next !== pid ? next : null;
    }, 'a new leader');
    const takeoverMs = Date.now() - killedAt;
    await until(async () => acknowledged.length >= beforeKill + 6, 'writes after the kill', SETTLE_DEADLINE_MS);
    stop = true;
    await Promise.all(writers);
    expect(alive().map((i) => i.service.child.pid)).toContain(successor);
    expect(unreadable).toEqual([]);
    for (const instance of alive()) {
      const page = await instance.admin.withKey(readKey).get('/v1/trunks?limit=100');
      const listed = new Set(page.body.trunks.map((t: { id: string }) => t.id));
      expect(acknowledged.filter((id) => !listed.has(id))).toEqual([]);
    }
    const [applied, stored] = await until(async () => {
      const counts = await appliedAndStored();
      return counts[0] >= counts[1] ? counts : null;
    }, 'the new leader to catch up');
    expect(applied).toBe(stored);
    process.stdout.write(
      `multi-instance: leader ${pid} killed; ${successor} leads after ${takeoverMs} ms; ${acknowledged.length} acknowledged creates (${acknowledged.length - beforeKill} after the kill) all readable\n`,
    );
  });
});
