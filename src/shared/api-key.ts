import { hash } from 'node:crypto';
import { randomBase62 } from './ids';
import type { Environment } from './api-key-scopes';

const KEY_PATTERN = /^sk_(live|test)_[A-Za-z0-9]{32}$/;

export function generateApiKey(environment: Environment): string {
  return `sk_${environment}_${randomBase62(32)}`;
}

/** The environment a well-formed key belongs to, or null for anything else. */
export function environmentOfKey(key: string): Environment | null {
  const match = KEY_PATTERN.exec(key);
  return match ? (match[1] as Environment) : null;
}

/**
 * Keys carry ~190 bits of entropy, so a fast hash is enough (no password stretching needed) and
 * the lookup by hash reveals nothing useful through timing. Every request hashes its key: the
 * one-shot hash() costs half of createHash().update().digest() (no Hash object per call).
 */
export function hashApiKey(key: string): string {
  return hash('sha256', key, 'hex');
}

export const keyHint = (key: string): string => key.slice(-4);
