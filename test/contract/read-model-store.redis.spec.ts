import type { Redis } from 'ioredis';
import { RedisReadModelStore } from '../../src/infrastructure/read-model/redis.read-model-store';
import type { ReadModelStore } from '../../src/infrastructure/read-model/read-model-store.port';
import { RedisTestContext } from '../support/redis';
import { describeReadModelStoreContract } from './read-model-store.contract';

const redis = new RedisTestContext('read-model-store');
let writer: Promise<Redis> | undefined;
let reader: Promise<Redis> | undefined;
const namespaces = new WeakMap<ReadModelStore, string>();

describeReadModelStoreContract('redis', {
  async create() {
    writer ??= redis.client('writer');
    const namespace = redis.namespace();
    const store = new RedisReadModelStore(await writer, namespace);
    namespaces.set(store, namespace);
    return store;
  },
  // A second connection: on one connection commands are ordered anyway, which would hide a
  // write that is not atomic.
  async sibling(store) {
    reader ??= redis.client('reader');
    return new RedisReadModelStore(await reader, namespaces.get(store)!);
  },
  teardown: () => redis.teardown(),
});
