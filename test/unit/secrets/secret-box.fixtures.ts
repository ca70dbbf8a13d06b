import { randomBytes } from 'node:crypto';
import { AesGcmSecretBox, SecretBox } from '../../../src/infrastructure/secrets/secret-box';
import type { EncryptedSecret } from '../../../src/shared/encrypted-secret';
import { MemoryKeyVault } from './memory.key-vault';

export const PASSWORD = 'correct-horse-battery-staple-42';

/** A SecretBox over an in-memory vault, with a clock the test moves. */
export function setup(options: { masterKey?: Buffer; vault?: MemoryKeyVault; ttlMs?: number } = {}) {
  const clock = { now: 1_000_000 };
  const vault = options.vault ?? new MemoryKeyVault();
  const masterKey = options.masterKey ?? randomBytes(32);
  const box = new AesGcmSecretBox(masterKey, vault, { cacheTtlMs: options.ttlMs ?? 60_000, now: () => clock.now });
  return { box, vault, masterKey, clock };
}

export async function trunkWithSecret(
  box: SecretBox,
  trunkId = 'trunk_a',
  field = 'sip_password',
): Promise<EncryptedSecret> {
  await box.createDataKey(trunkId);
  return box.encrypt(trunkId, field, PASSWORD);
}

/** Flips one bit of a base64 field. */
export const tampered = (value: string): string => {
  const bytes = Buffer.from(value, 'base64');
  bytes[bytes.length - 1] ^= 0x01;
  return bytes.toString('base64');
};
