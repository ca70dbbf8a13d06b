/**
 * Where each owner's (trunk's) data key is kept, wrapped by the master key. The vault lives next
 * to the event store but outside its events: destroying a key leaves the history replayable and
 * every secret encrypted under it unrecoverable (crypto-shredding).
 * Every adapter runs test/contract/key-vault.contract.ts.
 */
export interface KeyVault {
  /** Idempotent for the same value; refuses (DataKeyConflictError) a different one or a destroyed owner. */
  put(ownerId: string, wrappedKey: string): Promise<void>;
  /** The wrapped key, 'destroyed' once destroy() ran (for ever), null when none was ever put. */
  get(ownerId: string): Promise<string | 'destroyed' | null>;
  /**
   * Idempotent, also for an owner that never had a key. Afterwards get() answers 'destroyed',
   * put() is refused, and the wrapped key is gone from the vault's live data.
   */
  destroy(ownerId: string): Promise<void>;
}

export const KEY_VAULT = Symbol('KeyVault');

/** put() on an owner that already has another key ('exists') or whose key was destroyed. */
export class DataKeyConflictError extends Error {
  constructor(
    readonly ownerId: string,
    readonly reason: 'exists' | 'destroyed',
  ) {
    // Never the key itself: messages end up in logs.
    super(
      reason === 'exists'
        ? `a different data key is already stored for ${ownerId}`
        : `the data key of ${ownerId} was destroyed`,
    );
    this.name = 'DataKeyConflictError';
  }
}

/** Owner ids are trunk ids: a bug, not a user error, when one is empty. */
export function checkVaultArgs(ownerId: string, wrappedKey?: string): void {
  if (typeof ownerId !== 'string' || ownerId.length === 0)
    throw new Error('key vault: ownerId must be a non-empty string');
  if (wrappedKey !== undefined && (typeof wrappedKey !== 'string' || wrappedKey.length === 0)) {
    throw new Error('key vault: wrappedKey must be a non-empty string');
  }
}
