import { MemoryKeyUsageStore } from '../../src/rate-limiting/memory.key-usage-store';
import { describeKeyUsageStoreContract } from './key-usage-store.contract';

describeKeyUsageStoreContract('memory', {
  create: async () => new MemoryKeyUsageStore(),
  teardown: async () => undefined,
});
