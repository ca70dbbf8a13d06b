import { createSecretKey, type KeyObject, randomBytes } from 'node:crypto';
import type { EncryptedSecret } from '../../shared/encrypted-secret';
import { decodeWrappedKey, encodeWrappedKey, IV_BYTES, open, seal, TAG_BYTES } from './aes-gcm';
import { DataKeyCache } from './data-key-cache';
import { DataKeyConflictError, type KeyVault } from './key-vault.port';
import { MASTER_KEY_BYTES } from './master-key';
import { SecretDestroyedError, SecretUnavailableError } from './secret.errors';
import type { DestroyBroadcast, SecretBox } from './secret-box.port';

export { SecretDestroyedError, SecretUnavailableError } from './secret.errors';
export { SECRET_BOX } from './secret-box.port';
export type { DestroyBroadcast, SecretBox } from './secret-box.port';

export interface SecretBoxOptions {
  /** Unwrapped data keys kept in memory. */
  cacheEntries?: number;
  /**
   * How long this process may keep using a cached data key without asking the vault. Destroys
   * made through another instance arrive by broadcast (attachBroadcast); the expiry bounds what a
   * lost broadcast could cost.
   */
  cacheTtlMs?: number;
  now?: () => number;
}

const DATA_KEY_BYTES = 32;

/**
 * Envelope encryption of trunk secrets: each owner (trunk) has its own random data key, stored
 * in the vault wrapped under the master key (AES-256-GCM, AAD = owner id). Fields are encrypted
 * under the data key with AAD `<owner>:<field>`, so a ciphertext moved to another trunk or field
 * fails to decrypt. destroy() removes the data key: every copy of the owner's secrets, in every
 * event and backup, becomes unrecoverable. Plaintexts and keys never appear in errors or logs.
 */
export class AesGcmSecretBox implements SecretBox {
  private readonly masterKey: KeyObject;
  private readonly cache: DataKeyCache;
  /** Bumped by every destroy(): a key unwrapped from a read that began before it is not cached. */
  private destroyEpoch = 0;
  private broadcast: DestroyBroadcast | null = null;

  constructor(
    masterKey: Buffer,
    private readonly vault: KeyVault,
    options: SecretBoxOptions = {},
  ) {
    if (masterKey.length !== MASTER_KEY_BYTES) throw new Error(`MASTER_KEY: must be ${MASTER_KEY_BYTES} bytes`);
    this.masterKey = createSecretKey(Buffer.from(masterKey)); // a copy: the caller may wipe theirs
    this.cache = new DataKeyCache({
      maxEntries: options.cacheEntries ?? 1000,
      ttlMs: options.cacheTtlMs ?? 60_000,
      now: options.now ?? Date.now,
    });
  }

  /**
   * Gives the owner a data key. Idempotent: an owner that has one keeps it, so a retried command
   * reuses the key its first attempt stored. A destroyed owner never gets a new one.
   */
  async createDataKey(ownerId: string): Promise<void> {
    const existing = await this.dataKey(ownerId);
    if (existing === 'destroyed') throw new SecretDestroyedError(ownerId);
    if (existing) return;
    const raw = randomBytes(DATA_KEY_BYTES);
    const epoch = this.destroyEpoch;
    try {
      await this.vault.put(ownerId, encodeWrappedKey(seal(this.masterKey, raw, ownerId)));
      // The caller encrypts with it next: spare that call a vault read.
      if (epoch === this.destroyEpoch) this.cache.set(ownerId, createSecretKey(raw));
    } catch (error) {
      if (!(error instanceof DataKeyConflictError)) throw error;
      if (error.reason === 'destroyed') throw new SecretDestroyedError(ownerId);
      await this.createDataKey(ownerId); // a concurrent call stored its key first: keep that one
    } finally {
      raw.fill(0);
    }
  }

  async encrypt(ownerId: string, field: string, plaintext: string): Promise<EncryptedSecret> {
    const key = await this.requireKey(ownerId, field);
    const sealed = seal(key, Buffer.from(plaintext, 'utf8'), `${ownerId}:${field}`);
    return {
      v: 1,
      alg: 'A256GCM',
      iv: sealed.iv.toString('base64'),
      ct: sealed.ct.toString('base64'),
      tag: sealed.tag.toString('base64'),
    };
  }

  async decrypt(ownerId: string, field: string, secret: EncryptedSecret): Promise<string> {
    if (secret?.v !== 1 || secret.alg !== 'A256GCM')
      throw new SecretUnavailableError(ownerId, field, 'unsupported format');
    const key = await this.requireKey(ownerId, field);
    const sealed = {
      iv: Buffer.from(secret.iv, 'base64'),
      ct: Buffer.from(secret.ct, 'base64'),
      tag: Buffer.from(secret.tag, 'base64'),
    };
    if (sealed.iv.length !== IV_BYTES || sealed.tag.length !== TAG_BYTES)
      throw new SecretUnavailableError(ownerId, field, 'malformed');
    const plaintext = open(key, sealed, `${ownerId}:${field}`);
    if (!plaintext) throw new SecretUnavailableError(ownerId, field, 'authentication failed');
    return plaintext.toString('utf8');
  }

  /** Crypto-shredding: the owner's secrets become unrecoverable. Idempotent. */
  async destroy(ownerId: string): Promise<void> {
    this.destroyEpoch += 1;
    this.cache.delete(ownerId);
    await this.vault.destroy(ownerId);
    this.cache.set(ownerId, 'destroyed');
    // Before the caller answers 2xx: no other instance keeps using the key from its cache.
    await this.broadcast?.publish(ownerId);
  }

  /** Several instances share the vault: destroys are told to (and heard from) the others. */
  attachBroadcast(broadcast: DestroyBroadcast): void {
    this.broadcast = broadcast;
  }

  /** Another instance destroyed the owner's key. */
  forgetDestroyed(ownerId: string): void {
    this.destroyEpoch += 1;
    this.cache.set(ownerId, 'destroyed');
  }

  /** Broadcasts may have been missed (the subscriber reconnected): trust nothing cached. */
  forgetAll(): void {
    this.destroyEpoch += 1;
    this.cache.clear();
  }

  private async requireKey(ownerId: string, field: string): Promise<KeyObject> {
    const key = await this.dataKey(ownerId);
    if (key === 'destroyed') throw new SecretDestroyedError(ownerId, field);
    if (!key) throw new SecretUnavailableError(ownerId, field, 'no data key');
    return key;
  }

  private async dataKey(ownerId: string): Promise<KeyObject | 'destroyed' | null> {
    const cached = this.cache.get(ownerId);
    if (cached) return cached;
    const epoch = this.destroyEpoch;
    const stored = await this.vault.get(ownerId);
    if (stored === null) return null;
    const value = stored === 'destroyed' ? 'destroyed' : this.unwrap(ownerId, stored);
    // A destroy() that ran while the vault was read may have made this answer stale.
    if (epoch === this.destroyEpoch) this.cache.set(ownerId, value);
    return value;
  }

  private unwrap(ownerId: string, wrapped: string): KeyObject {
    const sealed = decodeWrappedKey(wrapped);
    const raw = sealed && open(this.masterKey, sealed, ownerId);
    // Wrong master key, or a wrapped key copied from another owner.
    if (!raw || raw.length !== DATA_KEY_BYTES)
      throw new SecretUnavailableError(ownerId, undefined, 'data key cannot be unwrapped');
    const key = createSecretKey(raw);
    raw.fill(0);
    return key;
  }
}
