import type { KeyObject } from 'node:crypto';

export interface DataKeyCacheOptions {
  maxEntries: number;
  ttlMs: number;
  now: () => number;
}

/**
 * Unwrapped data keys by owner: a small LRU whose entries also expire. 'destroyed' is cached
 * too: destruction is final, so that answer can never go stale. A Map keeps insertion order,
 * so re-inserting on a hit makes its first key the least recently used.
 */
export class DataKeyCache {
  private readonly entries = new Map<string, { value: KeyObject | 'destroyed'; expiresAt: number }>();

  constructor(private readonly options: DataKeyCacheOptions) {}

  get(ownerId: string): KeyObject | 'destroyed' | undefined {
    const entry = this.entries.get(ownerId);
    if (!entry) return undefined;
    this.entries.delete(ownerId);
    if (entry.value !== 'destroyed' && entry.expiresAt <= this.options.now()) return undefined;
    this.entries.set(ownerId, entry);
    return entry.value;
  }

  set(ownerId: string, value: KeyObject | 'destroyed'): void {
    this.entries.delete(ownerId);
    this.entries.set(ownerId, { value, expiresAt: this.options.now() + this.options.ttlMs });
    while (this.entries.size > this.options.maxEntries) {
      const oldest = this.entries.keys().next().value as string;
      this.entries.delete(oldest);
    }
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
