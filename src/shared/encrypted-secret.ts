/**
 * A secret as events carry it: AES-256-GCM ciphertext under the owner's data key. The data key
 * lives outside the event store (the key vault), so destroying it makes every copy of the
 * secret unrecoverable while the history stays replayable.
 */
export interface EncryptedSecret {
  v: 1;
  alg: 'A256GCM';
  /** base64 */
  iv: string;
  /** base64 */
  ct: string;
  /** base64 */
  tag: string;
}

export function isEncryptedSecret(value: unknown): value is EncryptedSecret {
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as EncryptedSecret).alg === 'A256GCM' &&
    typeof (value as EncryptedSecret).ct === 'string'
  );
}
