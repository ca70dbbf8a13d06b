import type { Redis } from 'ioredis';
import pino from 'pino';
import { RedisBus } from '../../src/infrastructure/cluster/redis.bus';
import { RecordInvalidations, recordDropChannel } from '../../src/infrastructure/cluster/record-invalidations';
import { CachingReadModelStore } from '../../src/infrastructure/read-model/caching.read-model-store';
import { RecordCache } from '../../src/infrastructure/read-model/record-cache';
import { RedisReadModelStore } from '../../src/infrastructure/read-model/redis.read-model-store';
import { RedisTestContext, testRedisUrl } from '../support/redis';
import { SETTLE_DEADLINE_MS } from '../support/deadlines';

const TTL_MS = 10_000;
const covers = (key: string) => key.startsWith('trunk:');

/** Log lines at warn and above, as the logger wrote them. */
function recordingLogger(): { logger: pino.Logger; lines: string[] } {
  const lines: string[] = [];
  const logger = pino({ level: 'warn' }, { write: (line: string) => lines.push(line) });
  return { logger, lines };
}

/**
 * Instances' record copies over real Redis buses and one Redis read-model store: a drop through
 * one instance empties every copy before it resolves; a drop an instance never hears of (its bus
 * away, a message lost) is bounded by the TTL; an instance that never acknowledges delays the drop
 * by the bounded wait only, logged; a disconnected bus serves no copy.
 */
describe('record invalidations across instances (Redis bus)', () => {
  const redis = new RedisTestContext('record-invalidations');
  const buses: RedisBus[] = [];
  let writer: Redis;
  let namespace: string;
  let clock = 1_000_000;

  beforeAll(async () => {
    writer = await redis.client('writer');
  });
  afterAll(async () => {
    await Promise.all(buses.map((bus) => bus.close().catch(() => undefined)));
    await redis.teardown();
  });
  beforeEach(() => {
    namespace = redis.namespace();
  });

  async function instance(name: string, busNamespace = namespace, logger = pino({ level: 'silent' })) {
    const bus = await RedisBus.connect(testRedisUrl(), await redis.client(`publisher-${name}`));
    buses.push(bus);
    const cache = new RecordCache({
      ttlMs: TTL_MS,
      covers,
      maxEntries: 100,
      maxChars: 100_000,
      usable: () => bus.connected,
      now: () => clock,
    });
    const store = new CachingReadModelStore(
      new RedisReadModelStore(await redis.client(`reader-${name}`), namespace),
      cache,
    );
    const invalidations = await RecordInvalidations.connect(cache, covers, bus, busNamespace, logger, 500);
    return { bus, cache, store, invalidations };
  }

  const storeWrite = (key: string, value: string) =>
    new RedisReadModelStore(writer, namespace).write([{ op: 'set', key, value }]);

  it('drops the copies on every instance before dropped() resolves', async () => {
    const [a, b, c] = await Promise.all(['a', 'b', 'c'].map((name) => instance(name)));
    await storeWrite('trunk:1', 'v1');
    expect(await Promise.all([a, b, c].map((i) => i.store.get('trunk:1')))).toEqual(['v1', 'v1', 'v1']);
    await storeWrite('trunk:1', 'v2');
    // Copies: not read again from the store.
    expect(await Promise.all([a, b, c].map((i) => i.store.get('trunk:1')))).toEqual(['v1', 'v1', 'v1']);
    await a.invalidations.dropped(['trunk:1']);
    expect(await Promise.all([a, b, c].map((i) => i.store.get('trunk:1')))).toEqual(['v2', 'v2', 'v2']);
  });

  it('bounds a drop an instance never heard of by the TTL', async () => {
    const a = await instance('a');
    // b listens elsewhere: every drop published for a's instances is lost to it.
    const b = await instance('b', `${namespace}elsewhere:`);
    await storeWrite('trunk:2', 'v1');
    expect(await b.store.get('trunk:2')).toBe('v1');
    await storeWrite('trunk:2', 'v2');
    await a.invalidations.dropped(['trunk:2']);
    expect(await b.store.get('trunk:2')).toBe('v1');
    clock += TTL_MS - 1;
    expect(await b.store.get('trunk:2')).toBe('v1');
    clock += 1;
    expect(await b.store.get('trunk:2')).toBe('v2');
  });

  it('waits no longer than the bounded wait for an instance that never acknowledges, and says so', async () => {
    const { logger, lines } = recordingLogger();
    const a = await instance('a', namespace, logger);
    const b = await instance('b');
    // A subscriber that receives the drops and never acknowledges (a stalled instance).
    const silent = await redis.client('silent');
    await silent.subscribe(recordDropChannel(namespace));
    await storeWrite('trunk:3', 'v1');
    expect(await b.store.get('trunk:3')).toBe('v1');
    await storeWrite('trunk:3', 'v2');
    await a.invalidations.dropped(['trunk:3']);
    // The instances that listen dropped their copies all the same.
    expect(await b.store.get('trunk:3')).toBe('v2');
    expect(lines.join('')).toMatch(/not every instance acknowledged in time/);
    await silent.unsubscribe();
  });

  it('serves no copy while its bus is disconnected', async () => {
    const b = await instance('b');
    await storeWrite('trunk:4', 'v1');
    expect(await b.store.get('trunk:4')).toBe('v1');
    await storeWrite('trunk:4', 'v2');
    await b.bus.close();
    // The connection's status follows its close event.
    const deadline = Date.now() + SETTLE_DEADLINE_MS;
    while (b.bus.connected && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(b.bus.connected).toBe(false);
    expect(await b.store.get('trunk:4')).toBe('v2');
    await storeWrite('trunk:4', 'v3');
    // Nor was v2 kept while it read it.
    expect(await b.store.get('trunk:4')).toBe('v3');
  });

  it('copies only the keys it covers, and drops everything on a drop of many keys', async () => {
    const a = await instance('a');
    const b = await instance('b');
    await storeWrite('account:1', 'x1');
    await storeWrite('trunk:5', 'v1');
    expect([await b.store.get('account:1'), await b.store.get('trunk:5')]).toEqual(['x1', 'v1']);
    await storeWrite('account:1', 'x2');
    expect(await b.store.get('account:1')).toBe('x2');
    await storeWrite('trunk:5', 'v2');
    await a.invalidations.dropped(Array.from({ length: 501 }, (_, i) => `trunk:other-${i}`));
    expect(await b.store.get('trunk:5')).toBe('v2');
  });
});
