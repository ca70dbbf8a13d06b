import type { Redis } from 'ioredis';
import { CachingReadModelStore } from '../../src/infrastructure/read-model/caching.read-model-store';
import { RecordCache } from '../../src/infrastructure/read-model/record-cache';
import { RedisReadModelStore } from '../../src/infrastructure/read-model/redis.read-model-store';
import type { ReadModelStore } from '../../src/infrastructure/read-model/read-model-store.port';
import { RedisTestContext } from '../support/redis';
import { describeReadModelStoreContract } from './read-model-store.contract';

/**
 * The gate's caching decorator over the Redis adapter, copying every key (not only the gate's
 * records), so that each case of the contract reads through the copies. A sibling is the same
 * instance over another connection: it shares the instance's cache.
 */
const redis = new RedisTestContext('read-model-store-caching');
let writer: Promise<Redis> | undefined;
let reader: Promise<Redis> | undefined;
const created = new WeakMap<ReadModelStore, { namespace: string; cache: RecordCache }>();

describeReadModelStoreContract('caching over redis', {
  async create() {
    writer ??= redis.client('writer');
    const namespace = redis.namespace();
    const cache = new RecordCache({ ttlMs: 60_000, covers: () => true, maxEntries: 1000, maxChars: 1_000_000 });
    const store = new CachingReadModelStore(new RedisReadModelStore(await writer, namespace), cache);
    created.set(store, { namespace, cache });
    return store;
  },
  async sibling(store) {
    reader ??= redis.client('reader');
    const { namespace, cache } = created.get(store)!;
    return new CachingReadModelStore(new RedisReadModelStore(await reader, namespace), cache);
  },
  teardown: () => redis.teardown(),
});
