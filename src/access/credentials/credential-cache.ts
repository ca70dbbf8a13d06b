import { LRUCache } from 'lru-cache';
import type { KeyCredential } from '../../api-keys/read/api-key.lookup';
import { hashApiKey } from '../../shared/api-key';
import type { KeyHashes } from './key-hashes';

export interface CredentialCacheOptions {
  /** CREDENTIAL_CACHE_TTL_MS: the longest an entry is trusted without a word from the bus. */
  ttlMs: number;
  /** Entries kept at most; the least recently used go first. */
  maxEntries: number;
  now?: () => number;
}

interface Entry {
  credential: KeyCredential;
  expiresAtMs: number;
  /** The key presented for this hash once the credential was accepted (KeyHashes). */
  presentedKey?: string;
}

/**
 * This instance's copy of the credentials it has seen, by key hash, so that a request makes no
 * round trip for its key. A key's record changes only when it is revoked (issuing makes a new
 * hash; expiry is checked against the clock), and a revocation is pushed to every instance
 * before it answers (CredentialRevocations). Entries still expire after `ttlMs`: that bounds a
 * revocation this instance never heard of (bus unreachable, a CLI that writes the store
 * directly). Unknown hashes are never cached, so a key issued a moment ago works at once.
 * lru-cache keeps the bound and the order of use; entries expire by the given clock.
 *
 * Also the hashes of the keys behind those entries (KeyHashes), so that a known key is not hashed
 * on every request: a presented key is remembered only beside its cached credential and leaves
 * with it (revocation, TTL, eviction, clear), so no more keys are held than credentials, and a
 * key that was never accepted is never held.
 */
export class CredentialCache implements KeyHashes {
  private readonly entries: LRUCache<string, Entry>;
  /** Presented key → its hash, for the entries that hold a presentedKey, and only those. */
  private readonly hashes = new Map<string, string>();
  /** Bumped by every invalidation: a lookup that started before one must not fill the cache. */
  private generation = 0;
  private readonly now: () => number;

  constructor(private readonly options: CredentialCacheOptions) {
    this.entries = new LRUCache<string, Entry>({
      max: options.maxEntries,
      // Called on delete, eviction, replacement and clear: the key leaves with its entry.
      dispose: (entry) => {
        if (entry.presentedKey !== undefined) this.hashes.delete(entry.presentedKey);
      },
    });
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

  /**
   * The key's SHA-256 (hex). A remembered key is found by the Map's own string hash, which says
   * nothing useful through timing: to compare contents, V8 first needs a string with the same
   * 32-bit hash, which tells an attacker nothing of the key.
   */
  hashOf(key: string): string {
    return this.hashes.get(key) ?? hashApiKey(key);
  }

  remember(key: string, hash: string): void {
    const entry = this.entries.peek(hash);
    if (!entry || entry.presentedKey !== undefined) return;
    entry.presentedKey = key;
    this.hashes.set(key, hash);
  }

  forget(hash: string): void {
    this.generation += 1;
    this.entries.delete(hash);
  }

  /** After the bus may have lost messages (its subscriber reconnected). */
  clear(): void {
    this.generation += 1;
    this.entries.clear();
    this.hashes.clear();
  }

  get size(): number {
    return this.entries.size;
  }

  /** How many presented keys are remembered (never more than `size`). */
  get rememberedKeys(): number {
    return this.hashes.size;
  }
}
