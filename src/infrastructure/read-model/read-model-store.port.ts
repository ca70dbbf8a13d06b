/**
 * Key-value read models (Redis when REDIS_URL is set, process memory otherwise). The operations
 * are Redis's own so the Redis adapter stays thin; the memory adapter implements the same
 * semantics and both run test/contract/read-model-store.contract.ts.
 */
export type WriteOp =
  | { op: 'set'; key: string; value: string }
  | { op: 'del'; key: string }
  | { op: 'hset'; key: string; fields: Record<string, string> }
  | { op: 'hdel'; key: string; fields: string[] }
  | { op: 'zadd'; key: string; score: number; member: string }
  | { op: 'zrem'; key: string; member: string };

export type Order = 'asc' | 'desc';

export interface Page {
  total: number;
  /** The values stored at valuePrefix + member, in index order (null where missing). */
  values: (string | null)[];
}

/** Members of a sorted set from a position, with the set's size. */
export interface IndexPage {
  total: number;
  members: string[];
}

/** Where a cursor stands in a sorted set: the last item a page showed, by its score and member. */
export interface IndexPosition {
  score: number;
  member: string;
}

export interface ReadModelStore {
  get(key: string): Promise<string | null>;
  mget(keys: string[]): Promise<(string | null)[]>;
  hgetall(key: string): Promise<Record<string, string>>;
  zcard(key: string): Promise<number>;
  /** Members by score (ties by member), skipping offset, at most count. */
  zrange(key: string, offset: number, count: number, order: Order): Promise<string[]>;
  /** zcard + zrange + mget of valuePrefix+member in one round trip. */
  page(indexKey: string, valuePrefix: string, offset: number, count: number, order: Order): Promise<Page>;
  /**
   * Like page, but from just after `after` in `order` (whether or not that member is still
   * there): O(log N + count) at any depth, and items inserted before the position never shift
   * the page the way they shift an offset.
   */
  pageAfter(indexKey: string, valuePrefix: string, after: IndexPosition, count: number, order: Order): Promise<Page>;
  /** Like pageAfter for lists whose items are not plain values (hashes): the members, in one round trip. */
  zrangeAfter(key: string, after: IndexPosition, count: number, order: Order): Promise<IndexPage>;
  /** Applies all ops atomically (one Lua script on Redis): a reader sees all of them or none. */
  write(ops: WriteOp[]): Promise<void>;
  /** Removes every key of this store's namespace (projection rebuild). */
  clear(): Promise<void>;
  ping(): Promise<void>;
  close(): Promise<void>;
}

/** The store could not be reached or timed out (Redis away): callers answer 503, not 500. */
export class ReadModelUnavailableError extends Error {
  constructor(
    message: string,
    override readonly cause?: unknown,
  ) {
    super(message);
    this.name = 'ReadModelUnavailableError';
  }
}

export const READ_MODEL_STORE = Symbol('ReadModelStore');

/**
 * The store the request gate reads single records through: with Redis, a CachingReadModelStore
 * over READ_MODEL_STORE (this instance's copies, kept coherent by the projection leader); the
 * store itself otherwise. Projections never read through it.
 */
export const GATE_READ_MODEL_STORE = Symbol('GateReadModelStore');
