import { SETTLE_DEADLINE_MS } from '../support/deadlines';
import type { Redis } from 'ioredis';
import { FencedOffError, LeaderTerm, Leadership } from '../../src/infrastructure/cluster/leader-lease.port';
import { leaseKeys } from '../../src/infrastructure/cluster/lease-keys';
import { LocalLeaderLease } from '../../src/infrastructure/cluster/local.leader-lease';
import { RedisFencedWriter } from '../../src/infrastructure/cluster/redis.fenced-writer';
import { RedisLeaderLease } from '../../src/infrastructure/cluster/redis.leader-lease';
import { closeRedisClient, createRedisClient, waitForReady } from '../../src/infrastructure/redis/redis.client';
import { RedisTestContext, testRedisUrl } from '../support/redis';
import { startTcpProxy } from '../support/tcp-proxy';

const TTL_MS = 2000;

async function until(
  condition: () => boolean | Promise<boolean>,
  what: string,
  limitMs = SETTLE_DEADLINE_MS,
): Promise<void> {
  const started = Date.now();
  while (!(await condition())) {
    if (Date.now() - started > limitMs) throw new Error(`gave up waiting: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** A contender whose terms are recorded; `running` counts tasks running at once across contenders. */
function contender(
  lease: RedisLeaderLease,
  name: string,
  log: { running: number; maxRunning: number; terms: LeaderTerm[] },
): Leadership {
  return lease.runWhileLeader(name, async (term) => {
    log.terms.push(term);
    log.running += 1;
    log.maxRunning = Math.max(log.maxRunning, log.running);
    await new Promise<void>((resolve) => term.signal.addEventListener('abort', () => resolve(), { once: true }));
    log.running -= 1;
  });
}

describe('leader lease (Redis)', () => {
  const context = new RedisTestContext('leadership');
  let redis: Redis;

  beforeAll(async () => {
    redis = await context.client();
  });
  afterAll(() => context.teardown());

  it('lets exactly one of three instances lead, and another take over when the leader stops', async () => {
    const namespace = context.namespace();
    const log = { running: 0, maxRunning: 0, terms: [] as LeaderTerm[] };
    const leases = [0, 1, 2].map((i) => new RedisLeaderLease(redis, namespace, { ttlMs: TTL_MS, instanceId: `i${i}` }));
    const leaderships = leases.map((lease) => contender(lease, 'job', log));
    await until(() => log.terms.length === 1, 'a first leader');
    await new Promise((resolve) => setTimeout(resolve, TTL_MS * 3));
    expect(leaderships.filter((l) => l.leading)).toHaveLength(1);
    expect(log.terms).toHaveLength(1);

    const first = leaderships.findIndex((l) => l.leading);
    await leaderships[first].stop();
    await until(() => log.terms.length === 2, 'a second leader');
    expect(leaderships.filter((l) => l.leading)).toHaveLength(1);
    expect(log.terms[1].fencingToken).toBeGreaterThan(log.terms[0].fencingToken);
    expect(log.maxRunning).toBe(1);
    await Promise.all(leaderships.map((l) => l.stop()));
    expect(await redis.exists(leaseKeys(namespace, 'job').lease)).toBe(0);
  });

  it('stops a task whose lease was won while the stop was on its way (the acquire in flight)', async () => {
    const namespace = context.namespace();
    const lease = new RedisLeaderLease(redis, namespace, { ttlMs: TTL_MS, instanceId: 'stopping' });
    let started = 0;
    let sawStop = false;
    const leadership = lease.runWhileLeader('job', async (term) => {
      started += 1;
      await new Promise<void>((resolve) =>
        term.signal.aborted ? resolve() : term.signal.addEventListener('abort', () => resolve(), { once: true }),
      );
      sawStop = term.signal.aborted;
    });
    // The campaign's first acquire has been sent and not answered: the stop lands before the win.
    await leadership.stop();
    expect(started <= 1 && (started === 0 || sawStop)).toBe(true);
    expect(leadership.leading).toBe(false);
    expect(await redis.exists(leaseKeys(namespace, 'job').lease)).toBe(0);
  });

  it('hands the lease on within seconds when the leader dies without releasing it', async () => {
    const namespace = context.namespace();
    const log = { running: 0, maxRunning: 0, terms: [] as LeaderTerm[] };
    const url = new URL(testRedisUrl());
    const proxy = await startTcpProxy(url.hostname, Number(url.port || 6379));
    const doomed = createRedisClient(`redis://127.0.0.1:${proxy.port}`, { connectionName: 'test:doomed' });
    await waitForReady(doomed, 5000);
    const victim = contender(
      new RedisLeaderLease(doomed, namespace, { ttlMs: TTL_MS, instanceId: 'victim' }),
      'job',
      log,
    );
    await until(() => log.terms.length === 1, 'the victim leads');
    const survivor = contender(
      new RedisLeaderLease(redis, namespace, { ttlMs: TTL_MS, instanceId: 'survivor' }),
      'job',
      log,
    );
    // Like SIGKILL as far as Redis can tell: no release, no more renewals.
    await proxy.cut();
    await until(() => log.terms.length === 2, 'the survivor takes over');
    expect(log.terms[0].signal.aborted).toBe(true); // the victim's own deadline ended its term
    expect(log.terms[1].leaseValue).toMatch(/^survivor#/);
    expect(log.maxRunning).toBe(1);
    await Promise.all([victim.stop(), survivor.stop()]);
    await closeRedisClient(doomed);
  });

  it('refuses the write of a deposed leader and ends its term', async () => {
    const namespace = context.namespace();
    const writer = new RedisFencedWriter(redis, namespace);
    const terms: LeaderTerm[] = [];
    const lease = new RedisLeaderLease(redis, namespace, { ttlMs: 60_000, instanceId: 'paused' });
    const paused = lease.runWhileLeader('rm', async (term) => {
      terms.push(term);
      await new Promise<void>((resolve) => term.signal.addEventListener('abort', () => resolve(), { once: true }));
    });
    await until(() => terms.length === 1, 'leading');
    const checkpoint = { key: `${namespace}cp`, channel: `${namespace}ch`, value: '1:1' };
    await writer.write(terms[0], namespace, [{ op: 'set', key: 'a', value: 'first' }], checkpoint);
    // The lease expires while the leader is paused, and a successor takes it.
    await redis.del(leaseKeys(namespace, 'rm').lease);
    const successor = new RedisLeaderLease(redis, namespace, { ttlMs: 60_000, instanceId: 'successor' });
    const next: LeaderTerm[] = [];
    const leading = successor.runWhileLeader('rm', async (term) => {
      next.push(term);
      await new Promise<void>((resolve) => term.signal.addEventListener('abort', () => resolve(), { once: true }));
    });
    await until(() => next.length === 1, 'the successor leads');
    await expect(
      writer.write(terms[0], namespace, [{ op: 'set', key: 'a', value: 'stale' }], { ...checkpoint, value: '9:9' }),
    ).rejects.toBeInstanceOf(FencedOffError);
    expect(terms[0].signal.aborted).toBe(true);
    expect([await redis.get(`${namespace}a`), await redis.get(`${namespace}cp`)]).toEqual(['first', '1:1']);
    await writer.write(
      next[0],
      namespace,
      [
        { op: 'hset', key: 'h', fields: { x: '1' } },
        { op: 'zadd', key: 'z', score: 1763776000123, member: 'm' },
      ],
      { ...checkpoint, value: '2:2' },
    );
    expect(await redis.hgetall(`${namespace}h`)).toEqual({ x: '1' });
    expect(await redis.zscore(`${namespace}z`, 'm')).toBe('1763776000123');
    await Promise.all([paused.stop(), leading.stop()]);
  });
});

describe('leader lease (local)', () => {
  it('leads at once with token 0 and stops when asked', async () => {
    const seen: LeaderTerm[] = [];
    const leadership = new LocalLeaderLease().runWhileLeader('job', async (term) => {
      seen.push(term);
      await new Promise<void>((resolve) => term.signal.addEventListener('abort', () => resolve(), { once: true }));
    });
    expect(leadership.leading).toBe(true);
    expect(seen.map((t) => t.fencingToken)).toEqual([0]);
    await leadership.stop();
    expect(leadership.leading).toBe(false);
  });
});
