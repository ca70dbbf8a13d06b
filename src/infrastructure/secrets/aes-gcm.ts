import { createCipheriv, createDecipheriv, type KeyObject, randomBytes } from 'node:crypto';

/** AES-256-GCM with a random 96-bit IV per message and the full 128-bit tag. */
export const IV_BYTES = 12;
export const TAG_BYTES = 16;
const ALGORITHM = 'aes-256-gcm';

export interface Sealed {
  iv: Buffer;
  ct: Buffer;
  tag: Buffer;
}

/**
 * Random IVs are safe here: each data key encrypts a handful of fields over a trunk's life, far
 * below the 2^32 messages per key after which random 96-bit IVs risk a collision.
 */
export function seal(key: KeyObject, plaintext: Buffer, aad: string): Sealed {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv(ALGORITHM, key, iv, { authTagLength: TAG_BYTES });
  cipher.setAAD(Buffer.from(aad, 'utf8'));
  const ct = Buffer.concat([cipher.update(plaintext), cipher.final()]);
  return { iv, ct, tag: cipher.getAuthTag() };
}

/** Null when authentication fails: wrong key, wrong AAD, or altered iv/ct/tag. */
export function open(key: KeyObject, sealed: Sealed, aad: string): Buffer | null {
  if (sealed.iv.length !== IV_BYTES || sealed.tag.length !== TAG_BYTES) return null;
  try {
    const decipher = createDecipheriv(ALGORITHM, key, sealed.iv, { authTagLength: TAG_BYTES });
    decipher.setAAD(Buffer.from(aad, 'utf8'));
    decipher.setAuthTag(sealed.tag);
    return Buffer.concat([decipher.update(sealed.ct), decipher.final()]);
  } catch {
    return null;
  }
}

/** A wrapped data key as the vault stores it: `v1.<iv>.<ct>.<tag>`, each part base64url. */
export function encodeWrappedKey(sealed: Sealed): string {
  return ['v1', ...[sealed.iv, sealed.ct, sealed.tag].map((part) => part.toString('base64url'))].join('.');
}

const WRAPPED_KEY = /^v1\.([A-Za-z0-9_-]+)\.([A-Za-z0-9_-]+)\.([A-Za-z0-9_-]+)$/;

export function decodeWrappedKey(text: string): Sealed | null {
  const match = WRAPPED_KEY.exec(text);
  if (!match) return null;
  const [iv, ct, tag] = match.slice(1).map((part) => Buffer.from(part, 'base64url'));
  return { iv, ct, tag };
}
