import { LRUCache } from 'lru-cache';
import type { KeyCredential } from '../../api-keys/read/api-key.lookup';

export interface CredentialCacheOptions {
  /** CREDENTIAL_CACHE_TTL_MS: the longest an entry is trusted without a word from the bus. */
  ttlMs: number;
  /** Entries kept at most; the least recently used go first. */
  maxEntries: number;
  now?: () => number;
}

/**
 * This instance's copy of the credentials it has seen, by key hash, so that a request makes no
 * round trip for its key. A key's record changes only when it is revoked (issuing makes a new
 * hash; expiry is checked against the clock), and a revocation is pushed to every instance
 * before it answers (CredentialRevocations). Entries still expire after `ttlMs`: that bounds a
 * revocation this instance never heard of (bus unreachable, a CLI that writes the store
 * directly). Unknown hashes are never cached, so a key issued a moment ago works at once.
 * lru-cache keeps the bound and the order of use; entries expire by the given clock.
 */
export class CredentialCache {
  private readonly entries: LRUCache<string, { credential: KeyCredential; expiresAtMs: number }>;
  /** Bumped by every invalidation: a lookup that started before one must not fill the cache. */
  private generation = 0;
  private readonly now: () => number;

  constructor(private readonly options: CredentialCacheOptions) {
    this.entries = new LRUCache({ max: options.maxEntries });
    this.now = options.now ?? Date.now;
  }

  get enabled(): boolean {
    return this.options.ttlMs > 0;
  }

  get(hash: string): KeyCredential | undefined {
    const entry = this.entries.get(hash);
    if (!entry) return undefined;
    if (entry.expiresAtMs > this.now()) return entry.credential;
    this.entries.delete(hash);
    return undefined;
  }

  /** Taken before reading a credential from the store, and handed back to set(). */
  ticket(): number {
    return this.generation;
  }

  /** Keeps what a read that started at `ticket` found, unless something was invalidated since. */
  set(hash: string, credential: KeyCredential, ticket: number): void {
    if (!this.enabled || ticket !== this.generation) return;
    this.entries.set(hash, { credential, expiresAtMs: this.now() + this.options.ttlMs });
  }

  forget(hash: string): void {
    this.generation += 1;
    this.entries.delete(hash);
  }

  /** After the bus may have lost messages (its subscriber reconnected). */
  clear(): void {
    this.generation += 1;
    this.entries.clear();
  }

  get size(): number {
    return this.entries.size;
  }
}
