import { hashApiKey } from '../../shared/api-key';

/**
 * The SHA-256 of a presented API key, which names its credential. The per-instance credential
 * cache remembers it for the keys whose credential it holds (CredentialCache); without that
 * cache every key is hashed on every request.
 */
export interface KeyHashes {
  hashOf(key: string): string;
  /** Called once `key` was accepted: remember its hash if its credential is cached. */
  remember(key: string, hash: string): void;
}

export const KEY_HASHES = Symbol('KeyHashes');

export const UNCACHED_KEY_HASHES: KeyHashes = {
  hashOf: hashApiKey,
  remember: () => undefined,
};
