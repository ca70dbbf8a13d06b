import { SETTLE_DEADLINE_MS } from '../support/deadlines';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Redis } from 'ioredis';
import { createClickHouse } from '../../src/infrastructure/clickhouse/clickhouse.factory';
import type { ClickHouseExecutor } from '../../src/infrastructure/clickhouse/clickhouse.port';
import type { ClusterServices } from '../../src/infrastructure/cluster/cluster.port';
import type { Leadership } from '../../src/infrastructure/cluster/leader-lease.port';
import { RedisBus } from '../../src/infrastructure/cluster/redis.bus';
import { RedisFencedWriter } from '../../src/infrastructure/cluster/redis.fenced-writer';
import { RedisLeaderLease } from '../../src/infrastructure/cluster/redis.leader-lease';
import { createEventStore } from '../../src/infrastructure/event-store/event-store.factory';
import type { EventStore, GlobalPosition, NewEvent } from '../../src/infrastructure/event-store/event-store.port';
import { RedisReadModelStore } from '../../src/infrastructure/read-model/redis.read-model-store';
import { appliedKey, ledReadModelRunner } from '../../src/eventsourcing/led-projection';
import { ledTrunkDimension } from '../../src/trunks/projections/trunk-dimension.projector';
import { buildReadModelProjections } from '../../src/read-models/read-models.service';
import { closeRedisClient, createRedisClient, waitForReady } from '../../src/infrastructure/redis/redis.client';
import { RedisTestContext, testRedisUrl } from '../support/redis';
import { startTcpProxy, TcpProxy } from '../support/tcp-proxy';

const TTL_MS = 600;
const accountCreated = (id: string): NewEvent => ({
  id: randomUUID(),
  type: 'AccountCreated',
  data: { account_id: id, name: `n-${id}`, created_at: '2026-11-21T10:00:00.000Z' },
});
const trunkCreated = (id: string, name: string): NewEvent => ({
  id: randomUUID(),
  type: 'TrunkCreated',
  data: { trunk_id: id, account_id: 'acct_1', name, ai_provider: 'custom' },
});
const trunkRenamed = (id: string, name: string): NewEvent => ({
  id: randomUUID(),
  type: 'TrunkUpdated',
  data: { trunk_id: id, account_id: 'acct_1', changes: { name } },
});

async function until(condition: () => Promise<boolean> | boolean, what: string): Promise<void> {
  const started = Date.now();
  while (!(await condition())) {
    if (Date.now() - started > SETTLE_DEADLINE_MS) throw new Error(`gave up waiting: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Projections led across "instances" in one process: each with its own connections and lease. */
describe('projections under leadership', () => {
  const context = new RedisTestContext('leadership-projections');
  const dir = mkdtempSync(join(tmpdir(), 'trunkline-led-'));
  const buses: RedisBus[] = [];
  const proxied: Redis[] = [];
  let events: EventStore;

  beforeAll(async () => {
    events = await createEventStore({ dataDir: join(dir, 'events') });
  });
  afterAll(async () => {
    await Promise.all(buses.map((bus) => bus.close()));
    await Promise.all(proxied.map((redis) => closeRedisClient(redis)));
    await events.close();
    await context.teardown();
    rmSync(dir, { recursive: true, force: true });
  });

  /** An instance; through `proxy` its Redis can be cut, as a crash or a partition would. */
  async function instance(namespace: string, name: string, proxy?: TcpProxy): Promise<ClusterServices> {
    let redis: Redis;
    if (proxy) {
      redis = createRedisClient(`redis://127.0.0.1:${proxy.port}`, { connectionName: `test:${name}` });
      proxied.push(redis);
      await waitForReady(redis, 5000);
    } else redis = await context.client(name);
    const bus = await RedisBus.connect(testRedisUrl(), redis);
    buses.push(bus);
    return {
      redis,
      namespace,
      bus,
      lease: new RedisLeaderLease(redis, namespace, { ttlMs: TTL_MS, instanceId: name }),
      writer: new RedisFencedWriter(redis, namespace),
    };
  }

  it('applies each event once across two instances, through a crash of the leader, and releases waits on both', async () => {
    const namespace = context.namespace();
    const prefix = `${namespace}rm:`;
    const leds = [];
    const leaderships: Leadership[] = [];
    const url = new URL(testRedisUrl());
    const proxies = await Promise.all([0, 1].map(() => startTcpProxy(url.hostname, Number(url.port || 6379))));
    for (const [i, name] of ['a', 'b'].entries()) {
      const cluster = await instance(namespace, name, proxies[i]);
      const led = ledReadModelRunner(
        cluster,
        'read-models',
        buildReadModelProjections({ decrypt: async () => 'pw' }, 'sip.test'),
        new RedisReadModelStore(cluster.redis, prefix),
        prefix,
        events,
      );
      await led.shared.start();
      leds.push({ led, proxy: proxies[i] });
      leaderships.push(led.start(cluster.lease));
    }
    const append = async (n: number): Promise<GlobalPosition> => {
      let last: GlobalPosition | null = null;
      for (let i = 0; i < n; i++)
        last = (await events.append(`account-${randomUUID()}`, [accountCreated(randomUUID())], 'no_stream')).position;
      return last!;
    };
    const first = await append(20);
    expect(await Promise.all(leds.map(({ led }) => led.shared.waitFor(first, SETTLE_DEADLINE_MS)))).toEqual([
      true,
      true,
    ]);
    const leader = leaderships.findIndex((l) => l.leading);
    expect(leaderships.filter((l) => l.leading)).toHaveLength(1);

    await leds[leader].proxy.cut(); // the leader loses Redis, as in a crash: no release, no renewal
    const second = await append(20);
    const survivor = leds[1 - leader].led;
    expect(await survivor.shared.waitFor(second, SETTLE_DEADLINE_MS)).toBe(true);
    await until(() => !leaderships[leader].leading, 'the crashed leader ends its term');
    const redis = await context.client('check');
    const stored = (await events.readAll({ after: null, maxCount: 10_000 })).length;
    expect(Number(await redis.hget(prefix + appliedKey('read-models'), 'events'))).toBe(stored);
    await Promise.all(leaderships.map((l) => l.stop()));
    await leds[1 - leader].proxy.cut();
  });

  describe('the trunk dimension on a shared ClickHouse', () => {
    let clickhouse: ClickHouseExecutor;
    let dimensionEvents: EventStore;
    beforeAll(async () => {
      clickhouse = await createClickHouse({ url: null, dataDir: join(dir, 'ch') });
      dimensionEvents = await createEventStore({ dataDir: join(dir, 'dimension-events') });
    });
    afterAll(async () => {
      await dimensionEvents.close();
      await clickhouse.close();
    });

    it('is projected by one instance and waited for on the other', async () => {
      const namespace = context.namespace();
      const led = await Promise.all(
        ['a', 'b'].map(async (name) => ledTrunkDimension(await instance(namespace, name), dimensionEvents, clickhouse)),
      );
      await Promise.all(led.map((l) => l.shared.start()));
      const leaderships = led.map((l) => l.start());
      await dimensionEvents.append('trunk-conn_1', [trunkCreated('conn_1', 'First name')], 'no_stream');
      const { position } = await dimensionEvents.append('trunk-conn_1', [trunkRenamed('conn_1', 'Second name')], 0);
      expect(await Promise.all(led.map((l) => l.shared.waitFor(position, SETTLE_DEADLINE_MS)))).toEqual([true, true]);
      // One leads; on a busy machine a late renewal can leave a moment with none while the lease moves.
      await until(() => leaderships.filter((l) => l.leading).length === 1, 'one leader of the trunk dimension');
      expect(leaderships.filter((l) => l.leading)).toHaveLength(1);
      const rows = await clickhouse.query<{ name: string }>(
        "SELECT name FROM trunk_dimension FINAL WHERE trunk_id = 'conn_1'",
      );
      expect(rows.map((r) => r.name)).toEqual(['Second name']);
      await Promise.all(leaderships.map((l) => l.stop()));
    });
  });
});
