import { MemoryIdempotencyStore } from '../../src/idempotency/memory.idempotency-store';
import { describeIdempotencyStoreContract } from './idempotency-store.contract';

describeIdempotencyStoreContract('memory', {
  create: async () => new MemoryIdempotencyStore(),
  teardown: async () => undefined,
});

describe('MemoryIdempotencyStore', () => {
  it('sweeps expired keys at most once a minute', async () => {
    let now = Date.UTC(2030, 0, 1);
    const store = new MemoryIdempotencyStore(() => now);
    for (let i = 0; i < 20; i++) await store.claim('acct_a', `k${i}`, 'fp', 1000);
    now += 61_000;
    await store.claim('acct_a', 'fresh', 'fp', 1000);
    expect(store.size).toBe(1);
  });
});
