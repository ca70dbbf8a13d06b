import type { IndexPage, IndexPosition, Order, Page, ReadModelStore, WriteOp } from './read-model-store.port';
import type { CachedRecord, RecordCache } from './record-cache';

/**
 * A read-model store whose single-record reads (`get`, `hgetall` of the keys the cache covers)
 * come from this instance's RecordCache when it holds a copy; everything else goes to the store
 * underneath. Only the request gate reads through it: the projections read the store itself, so
 * no projection ever computes a write from a copy. Writes through it drop the copies of the keys
 * they touch here; the projection leader's writes, which go through the fenced writer, have
 * every instance drop them over the bus instead (RecordInvalidations). Runs the read-model store
 * contract suite.
 */
export class CachingReadModelStore implements ReadModelStore {
  constructor(
    private readonly inner: ReadModelStore,
    readonly cache: RecordCache,
  ) {}

  get(key: string): Promise<string | null> {
    if (!this.cache.covers(key)) return this.inner.get(key);
    const copy = this.cache.get('string', key);
    // Strings and hashes are copied apart: a copy here is a string or null.
    if (copy !== undefined) return Promise.resolve(copy as string | null);
    const ticket = this.cache.ticket();
    return this.inner.get(key).then((value) => {
      this.cache.set('string', key, value, ticket);
      return value;
    });
  }

  hgetall(key: string): Promise<Record<string, string>> {
    if (!this.cache.covers(key)) return this.inner.hgetall(key);
    const copy = this.cache.get('hash', key);
    if (typeof copy === 'object' && copy !== null) return Promise.resolve(copy as Record<string, string>);
    const ticket = this.cache.ticket();
    return this.inner.hgetall(key).then((value) => {
      this.cache.set('hash', key, value, ticket);
      return value;
    });
  }

  /** RecordCache.decoded() for the keys the cache covers; `decode(value)` for the others. */
  decoded<T>(kind: 'string' | 'hash', key: string, value: CachedRecord, decode: (value: CachedRecord) => T): T {
    return this.cache.covers(key) ? this.cache.decoded(kind, key, value, decode) : decode(value);
  }

  mget(keys: string[]): Promise<(string | null)[]> {
    return this.inner.mget(keys);
  }

  zcard(key: string): Promise<number> {
    return this.inner.zcard(key);
  }

  zrange(key: string, offset: number, count: number, order: Order): Promise<string[]> {
    return this.inner.zrange(key, offset, count, order);
  }

  page(indexKey: string, valuePrefix: string, offset: number, count: number, order: Order): Promise<Page> {
    return this.inner.page(indexKey, valuePrefix, offset, count, order);
  }

  pageAfter(indexKey: string, valuePrefix: string, after: IndexPosition, count: number, order: Order): Promise<Page> {
    return this.inner.pageAfter(indexKey, valuePrefix, after, count, order);
  }

  zrangeAfter(key: string, after: IndexPosition, count: number, order: Order): Promise<IndexPage> {
    return this.inner.zrangeAfter(key, after, count, order);
  }

  async write(ops: WriteOp[]): Promise<void> {
    try {
      await this.inner.write(ops);
    } finally {
      // Also when the write failed: it may have been applied before its answer was lost.
      this.cache.drop(ops.map((op) => op.key));
    }
  }

  async clear(): Promise<void> {
    try {
      await this.inner.clear();
    } finally {
      this.cache.clear();
    }
  }

  ping(): Promise<void> {
    return this.inner.ping();
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}

/**
 * `decode(value)` of the record at `key`, kept with this instance's copy when `store` keeps
 * copies (RecordCache.decoded()), computed afresh otherwise.
 */
export function decodedRecord<T>(
  store: ReadModelStore,
  kind: 'string' | 'hash',
  key: string,
  value: CachedRecord,
  decode: (value: CachedRecord) => T,
): T {
  return store instanceof CachingReadModelStore ? store.decoded(kind, key, value, decode) : decode(value);
}
