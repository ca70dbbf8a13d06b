import { MemorySortedSet } from './memory.sorted-set';
import { rankRange } from './rank-range';
import type { IndexPage, IndexPosition, Order, Page, ReadModelStore, WriteOp } from './read-model-store.port';

type Entry =
  | { type: 'string'; value: string }
  | { type: 'hash'; fields: Map<string, string> }
  | { type: 'zset'; set: MemorySortedSet };

const WRONGTYPE = 'WRONGTYPE Operation against a key holding the wrong kind of value';

/**
 * Process-memory read models with Redis's semantics, down to its quirks: MGET answers null for a
 * key of another type while GET/HGETALL/ZCARD throw WRONGTYPE; a hash or sorted set that loses
 * its last element disappears. Each instance is its own namespace. Calls are synchronous inside,
 * so a write is atomic for every reader.
 */
export class MemoryReadModelStore implements ReadModelStore {
  private readonly data = new Map<string, Entry>();

  async get(key: string): Promise<string | null> {
    return this.read(key, 'string')?.value ?? null;
  }

  async mget(keys: string[]): Promise<(string | null)[]> {
    return keys.map((key) => this.stringOrNull(key));
  }

  async hgetall(key: string): Promise<Record<string, string>> {
    return Object.fromEntries(this.read(key, 'hash')?.fields ?? []);
  }

  async zcard(key: string): Promise<number> {
    return this.read(key, 'zset')?.set.size ?? 0;
  }

  async zrange(key: string, offset: number, count: number, order: Order): Promise<string[]> {
    return this.members(key, offset, count, order);
  }

  /** Without an await inside, so no write can land between the count and the values. */
  async page(indexKey: string, valuePrefix: string, offset: number, count: number, order: Order): Promise<Page> {
    const members = this.members(indexKey, offset, count, order);
    return {
      total: this.read(indexKey, 'zset')?.set.size ?? 0,
      values: members.map((member) => this.stringOrNull(valuePrefix + member)),
    };
  }

  async pageAfter(
    indexKey: string,
    valuePrefix: string,
    after: IndexPosition,
    count: number,
    order: Order,
  ): Promise<Page> {
    return this.page(indexKey, valuePrefix, this.rankAfter(indexKey, after, order), count, order);
  }

  async zrangeAfter(key: string, after: IndexPosition, count: number, order: Order): Promise<IndexPage> {
    const start = this.rankAfter(key, after, order);
    return { total: await this.zcard(key), members: await this.zrange(key, start, count, order) };
  }

  /** The rank, in the list's order, of the first member after a position (0 for a missing set). */
  private rankAfter(key: string, after: IndexPosition, order: Order): number {
    const set = this.read(key, 'zset')?.set;
    return set ? set.rankAfter(after.score, after.member, order === 'desc') : 0;
  }

  /** Like EXEC: every op runs even after one fails (no rollback), then the first error is thrown. */
  async write(ops: WriteOp[]): Promise<void> {
    let firstError: unknown;
    for (const op of ops) {
      try {
        this.apply(op);
      } catch (err) {
        firstError ??= err;
      }
    }
    if (firstError) throw firstError;
  }

  async clear(): Promise<void> {
    this.data.clear();
  }

  async ping(): Promise<void> {}

  async close(): Promise<void> {}

  private apply(op: WriteOp): void {
    switch (op.op) {
      case 'set':
        this.data.set(op.key, { type: 'string', value: op.value });
        return;
      case 'del':
        this.data.delete(op.key);
        return;
      case 'hset':
        return this.hset(op.key, op.fields);
      case 'hdel':
        return this.hdel(op.key, op.fields);
      case 'zadd':
        return this.zadd(op.key, op.score, op.member);
      case 'zrem':
        return this.zrem(op.key, op.member);
    }
  }

  private members(key: string, offset: number, count: number, order: Order): string[] {
    const range = rankRange(offset, count);
    const set = this.read(key, 'zset')?.set;
    if (!range || !set) return [];
    return set.range(range[0], range[1], order === 'desc');
  }

  private hset(key: string, fields: Record<string, string>): void {
    const names = Object.keys(fields);
    if (names.length === 0) return;
    const entry = this.read(key, 'hash') ?? { type: 'hash', fields: new Map<string, string>() };
    for (const name of names) entry.fields.set(name, fields[name]);
    this.data.set(key, entry);
  }

  private zadd(key: string, score: number, member: string): void {
    const entry = this.read(key, 'zset') ?? { type: 'zset', set: new MemorySortedSet() };
    entry.set.add(member, score);
    this.data.set(key, entry);
  }

  private hdel(key: string, fields: string[]): void {
    const hash = this.read(key, 'hash')?.fields;
    if (!hash) return;
    for (const field of fields) hash.delete(field);
    if (hash.size === 0) this.data.delete(key);
  }

  private zrem(key: string, member: string): void {
    const set = this.read(key, 'zset')?.set;
    if (!set) return;
    set.remove(member);
    if (set.size === 0) this.data.delete(key);
  }

  private stringOrNull(key: string): string | null {
    const entry = this.data.get(key);
    return entry?.type === 'string' ? entry.value : null;
  }

  private read<T extends Entry['type']>(key: string, type: T): Extract<Entry, { type: T }> | undefined {
    const entry = this.data.get(key);
    if (!entry) return undefined;
    if (entry.type !== type) throw new Error(WRONGTYPE);
    return entry as Extract<Entry, { type: T }>;
  }
}
