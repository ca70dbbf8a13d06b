import { MemoryKeyUsageStore } from '../../src/infrastructure/rate-limit/memory.key-usage-store';
import { describeKeyUsageStoreContract } from './key-usage-store.contract';

describeKeyUsageStoreContract('memory', {
  create: async () => new MemoryKeyUsageStore(),
  teardown: async () => undefined,
});
