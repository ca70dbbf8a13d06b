import { RedisKeyUsageStore } from '../../src/rate-limiting/redis.key-usage-store';
import { RedisTestContext } from '../support/redis';
import { describeKeyUsageStoreContract } from './key-usage-store.contract';

const redis = new RedisTestContext('key-usage-store');
let client: ReturnType<RedisTestContext['client']> | undefined;

describeKeyUsageStoreContract('redis', {
  async create() {
    client ??= redis.client();
    return new RedisKeyUsageStore(await client, redis.namespace());
  },
  teardown: () => redis.teardown(),
});
