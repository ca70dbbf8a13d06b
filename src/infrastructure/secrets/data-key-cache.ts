import type { KeyObject } from 'node:crypto';
import { LRUCache } from 'lru-cache';

export interface DataKeyCacheOptions {
  maxEntries: number;
  ttlMs: number;
  now: () => number;
}

type DataKey = KeyObject | 'destroyed';

/**
 * Unwrapped data keys by owner: a small LRU (lru-cache keeps the bound and the order of use) whose
 * entries also expire `ttlMs` after they were set, by the caller's clock. 'destroyed' never
 * expires: destruction is final, so that answer can never go stale.
 */
export class DataKeyCache {
  private readonly entries: LRUCache<string, { value: DataKey; expiresAt: number }>;

  constructor(private readonly options: DataKeyCacheOptions) {
    this.entries = new LRUCache({ max: options.maxEntries });
  }

  get(ownerId: string): DataKey | undefined {
    const entry = this.entries.get(ownerId);
    if (!entry) return undefined;
    if (entry.value === 'destroyed' || entry.expiresAt > this.options.now()) return entry.value;
    this.entries.delete(ownerId);
    return undefined;
  }

  set(ownerId: string, value: DataKey): void {
    this.entries.set(ownerId, { value, expiresAt: this.options.now() + this.options.ttlMs });
  }

  delete(ownerId: string): void {
    this.entries.delete(ownerId);
  }

  clear(): void {
    this.entries.clear();
  }

  get size(): number {
    return this.entries.size;
  }
}
