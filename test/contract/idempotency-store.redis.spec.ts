import { RedisIdempotencyStore } from '../../src/idempotency/redis.idempotency-store';
import { RedisTestContext } from '../support/redis';
import { describeIdempotencyStoreContract } from './idempotency-store.contract';

const context = new RedisTestContext('idempotency-store');
let client: ReturnType<RedisTestContext['client']> | undefined;

describeIdempotencyStoreContract('redis', {
  async create() {
    client ??= context.client();
    return new RedisIdempotencyStore(await client, context.namespace());
  },
  teardown: () => context.teardown(),
});
