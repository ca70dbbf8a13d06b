import type { KeyUsageStore } from '../../src/rate-limiting/rate-limiter.port';

export interface KeyUsageStoreHarness {
  /** A store on a namespace no other case uses. */
  create(): Promise<KeyUsageStore>;
  /** Once, after every case: removes test data, closes connections. */
  teardown(): Promise<void>;
}

const at = (iso: string) => new Date(iso);

export function describeKeyUsageStoreContract(adapter: string, harness: KeyUsageStoreHarness): void {
  describe(`KeyUsageStore contract (${adapter})`, () => {
    afterAll(() => harness.teardown());

    it('reads zero counts and no last use for a key never used', async () => {
      const store = await harness.create();
      const usage = await store.get(['never']);
      expect(usage.get('never')).toEqual({ lastUsedAt: null, requestCount: 0, errorCount: 0 });
    });

    it('counts every request and, separately, the failed ones', async () => {
      const store = await harness.create();
      await store.record('k1', at('2030-01-01T00:00:01Z'), false);
      await store.record('k1', at('2030-01-01T00:00:02Z'), true);
      await store.record('k1', at('2030-01-01T00:00:03Z'), false);
      expect((await store.get(['k1'])).get('k1')).toEqual({
        lastUsedAt: at('2030-01-01T00:00:03Z'),
        requestCount: 3,
        errorCount: 1,
      });
    });

    it('keeps the latest use when records arrive out of order', async () => {
      const store = await harness.create();
      await store.record('k1', at('2030-01-01T10:00:00.250Z'), false);
      await store.record('k1', at('2030-01-01T09:00:00Z'), false);
      const usage = (await store.get(['k1'])).get('k1');
      expect(usage?.lastUsedAt).toEqual(at('2030-01-01T10:00:00.250Z'));
      expect(usage?.requestCount).toBe(2);
    });

    it('answers for every requested key at once, known or not, each on its own counts', async () => {
      const store = await harness.create();
      await store.record('a', at('2030-01-01T00:00:00Z'), true);
      await store.record('b', at('2030-01-02T00:00:00Z'), false);
      await store.record('b', at('2030-01-02T00:00:00Z'), false);
      const usage = await store.get(['b', 'unknown', 'a']);
      expect([...usage.keys()].sort()).toEqual(['a', 'b', 'unknown']);
      expect(usage.get('a')).toEqual({ lastUsedAt: at('2030-01-01T00:00:00Z'), requestCount: 1, errorCount: 1 });
      expect(usage.get('b')).toEqual({ lastUsedAt: at('2030-01-02T00:00:00Z'), requestCount: 2, errorCount: 0 });
      expect(usage.get('unknown')).toEqual({ lastUsedAt: null, requestCount: 0, errorCount: 0 });
    });

    it('returns an empty map for no keys', async () => {
      const store = await harness.create();
      expect((await store.get([])).size).toBe(0);
    });

    it('loses no record under concurrency', async () => {
      const store = await harness.create();
      const base = Date.UTC(2030, 0, 1);
      await Promise.all(Array.from({ length: 500 }, (_, i) => store.record('k', new Date(base + i), i % 5 === 0)));
      expect((await store.get(['k'])).get('k')).toEqual({
        lastUsedAt: new Date(base + 499),
        requestCount: 500,
        errorCount: 100,
      });
    });

    it('rejects an invalid date', async () => {
      const store = await harness.create();
      await expect(store.record('k', new Date(Number.NaN), false)).rejects.toThrow(RangeError);
    });
  });
}
