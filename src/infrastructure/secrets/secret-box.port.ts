import type { EncryptedSecret } from '../../shared/encrypted-secret';

/**
 * Envelope encryption of an owner's secrets (a trunk's SIP password and provider keys, a webhook
 * endpoint's signing secret) with crypto-shredding: destroy() makes every copy unrecoverable.
 * The one adapter is AesGcmSecretBox; tests of its users get a real one over a memory vault.
 */
export interface SecretBox {
  /** Idempotent: an owner that has a data key keeps it; a destroyed owner never gets a new one. */
  createDataKey(ownerId: string): Promise<void>;
  encrypt(ownerId: string, field: string, plaintext: string): Promise<EncryptedSecret>;
  decrypt(ownerId: string, field: string, secret: EncryptedSecret): Promise<string>;
  destroy(ownerId: string): Promise<void>;
  /** Destroys through this instance are told to the others sharing the vault. */
  attachBroadcast(broadcast: DestroyBroadcast): void;
  /** Another instance destroyed this owner's key: drop what this one has cached. */
  forgetDestroyed(ownerId: string): void;
  /** Resynchronisation after a lost broadcast connection: drop every cached key. */
  forgetAll(): void;
}

export const SECRET_BOX = Symbol('SecretBox');

/** Tells the other instances sharing the vault that an owner's key was destroyed. */
export interface DestroyBroadcast {
  /** Resolves once the message is handed to every listening instance's connection. */
  publish(ownerId: string): Promise<void>;
}
