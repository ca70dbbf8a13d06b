import { MemoryReadModelStore } from '../../src/infrastructure/read-model/memory.read-model-store';
import { describeReadModelStoreContract } from './read-model-store.contract';

// Each instance is its own namespace; the sibling is the same instance, since there is no
// connection to tell apart.
describeReadModelStoreContract('memory', {
  create: async () => new MemoryReadModelStore(),
  sibling: async (store) => store,
  teardown: async () => undefined,
});
