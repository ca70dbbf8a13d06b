import { createHash } from 'node:crypto';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/**
 * An id derived from its seed: replaying the projection after a crash (or a rebuild) derives the
 * same delivery and event ids, so nothing is created twice and receivers can deduplicate.
 */
export function derivedId(prefix: string, seed: string, length = 24): string {
  const digest = createHash('sha256').update(seed).digest();
  let out = '';
  for (let i = 0; i < length; i++) out += BASE62[digest[i] % 62];
  return `${prefix}_${out}`;
}

/** One delivery per (webhook event, endpoint). */
export const deliveryIdOf = (eventId: string, endpointId: string): string =>
  derivedId('wd', `${eventId}:${endpointId}`);
