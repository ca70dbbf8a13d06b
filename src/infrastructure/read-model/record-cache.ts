import { LRUCache } from 'lru-cache';

export type CachedRecord = string | null | Readonly<Record<string, string>>;

export interface RecordCacheOptions {
  /** RECORD_CACHE_TTL_MS: the longest a copy is trusted without a word from the bus (0: no cache). */
  ttlMs: number;
  /** Which read-model keys (no namespace) may be copied: the records the request gate reads. */
  covers: (key: string) => boolean;
  /** Copies kept at most; the least recently used go first. */
  maxEntries: number;
  /** The most characters (keys and values) kept, summed over the copies. */
  maxChars: number;
  /** False while copies cannot be trusted (the bus that drops them is disconnected): reads go to the store. */
  usable?: () => boolean;
  now?: () => number;
}

interface Entry {
  value: CachedRecord;
  expiresAtMs: number;
  /** What `decoder` made of `value` (decoded()): kept with the copy, and gone with it. */
  decoder?: (value: CachedRecord) => unknown;
  decoded?: unknown;
}

/**
 * This instance's copies of single read-model records (an account, a trunk, a gateway record),
 * so that the request gate answers them without a Redis round trip. A copy is dropped by every
 * write to its key: the projection leader publishes the keys a batch wrote and waits until every
 * instance dropped them before it announces the batch's checkpoint (RecordInvalidations,
 * led-projection.ts), so a write's read-your-writes wait covers every instance's copy. The TTL
 * bounds a drop this instance never heard of (bus unreachable or too slow to acknowledge, a tool
 * that wrote the store directly); a bus reconnect, after which drops may have been lost, empties
 * the cache. Misses are copied too (null, or an empty hash): creating the record drops them.
 *
 * Fills race drops: a read that started before a drop may return the value from before the
 * write, so a fill carries the generation taken before its read (ticket) and is refused when any
 * drop happened since.
 *
 * A copy also keeps what the gate made of it (a record decoded from its JSON, the body built
 * from it: decoded()), so that is done once per copy instead of once per request. It is a
 * memo of the value the caller holds, never a read: it answers only for the very value in the
 * copy, and leaves with the copy (drop, clear, TTL, eviction), so it can be no staler than the
 * copy itself. It counts against maxChars as much again as the copy's text.
 */
export class RecordCache {
  private readonly entries: LRUCache<string, Entry>;
  private generation = 0;
  private readonly now: () => number;
  private readonly usable: () => boolean;

  constructor(private readonly options: RecordCacheOptions) {
    this.entries = new LRUCache<string, Entry>({
      max: options.maxEntries,
      maxSize: options.maxChars,
      sizeCalculation: (entry, key) => key.length + sizeOf(entry.value) * (entry.decoder ? 2 : 1),
    });
    this.now = options.now ?? Date.now;
    this.usable = options.usable ?? (() => true);
  }

  get enabled(): boolean {
    return this.options.ttlMs > 0;
  }

  covers(key: string): boolean {
    return this.enabled && this.options.covers(key);
  }

  /** The copy of `key` read as `kind`, or undefined when there is none to trust. */
  get(kind: 'string' | 'hash', key: string): CachedRecord | undefined {
    if (!this.usable()) return undefined;
    const slot = slotOf(kind, key);
    const entry = this.entries.get(slot);
    if (!entry) return undefined;
    if (entry.expiresAtMs > this.now()) return entry.value;
    this.entries.delete(slot);
    return undefined;
  }

  /** Taken before reading a record from the store, and handed back to set(). */
  ticket(): number {
    return this.generation;
  }

  /** Keeps what a read that started at `ticket` found, unless a drop happened since. */
  set(kind: 'string' | 'hash', key: string, value: CachedRecord, ticket: number): void {
    if (!this.enabled || ticket !== this.generation || !this.usable()) return;
    const copy = typeof value === 'object' && value !== null ? Object.freeze({ ...value }) : value;
    this.entries.set(slotOf(kind, key), { value: copy, expiresAtMs: this.now() + this.options.ttlMs });
  }

  /**
   * `decode(value)`, computed once per copy: when `value` is this instance's copy of `key` (the
   * same text, or the same frozen hash it handed out), the result is kept beside the copy and
   * returned frozen, shared by every caller, until the copy goes. Any other value (read from the
   * store, or a copy already replaced) is decoded afresh. A decoder that throws keeps nothing.
   * Each decoder must be one function for the life of the cache (it names the memo).
   */
  decoded<T>(kind: 'string' | 'hash', key: string, value: CachedRecord, decode: (value: CachedRecord) => T): T {
    const slot = slotOf(kind, key);
    const entry = this.entries.peek(slot);
    if (!entry || entry.value !== value) return decode(value);
    if (entry.decoder === decode) return entry.decoded as T;
    const decoded = deepFreeze(decode(value));
    // A new entry object, so that lru-cache counts its size again; same value, same expiry.
    this.entries.set(slot, { ...entry, decoder: decode as (value: CachedRecord) => unknown, decoded });
    return decoded;
  }

  /** Drops the copies of `keys` (both kinds) and refuses fills of reads already under way. */
  drop(keys: readonly string[]): void {
    this.generation += 1;
    for (const key of keys) {
      this.entries.delete(slotOf('string', key));
      this.entries.delete(slotOf('hash', key));
    }
  }

  /** After a rebuild, or when drops may have been lost (the bus reconnected). */
  clear(): void {
    this.generation += 1;
    this.entries.clear();
  }

  get size(): number {
    return this.entries.size;
  }
}

function slotOf(kind: 'string' | 'hash', key: string): string {
  return kind === 'string' ? `s:${key}` : `h:${key}`;
}

function sizeOf(value: CachedRecord): number {
  if (value === null) return 1;
  if (typeof value === 'string') return value.length + 1;
  let size = 1;
  for (const [field, text] of Object.entries(value)) size += field.length + text.length;
  return size;
}

/** Frozen through and through: a decoded copy is shared by every request that reads it. */
function deepFreeze<T>(value: T): T {
  if (typeof value !== 'object' || value === null) return value;
  for (const field of Object.values(value)) deepFreeze(field);
  return Object.freeze(value);
}
