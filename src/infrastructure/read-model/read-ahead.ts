import type { ReadModelStore } from './read-model-store.port';

/**
 * The one read-model record a GET request is going to read, named before its handler runs, so
 * the request gate can fetch it in the same Redis round trip as the credential and the rate
 * limit: one round trip per request instead of two. `key` is a read-model key (no namespace).
 */
export interface ReadAhead {
  kind: 'hash' | 'string';
  key: string;
}

export type ReadAheadValue = Record<string, string> | string | null;

/**
 * What the gate fetched, handed to the handler. The value was read after the request arrived
 * (atomically with the credential check), so it is what the handler's own read would have
 * returned: a write acknowledged before this request is in it. The handler still applies every
 * check of its own (ownership, status): a value read ahead is only data, never a decision.
 */
export class ReadAheadResult {
  constructor(
    private readonly spec: ReadAhead,
    private readonly value: ReadAheadValue,
  ) {}

  /** The hash at `key` (empty when missing), or undefined when this is not what was read ahead. */
  hash(key: string): Record<string, string> | undefined {
    if (this.spec.kind !== 'hash' || this.spec.key !== key || typeof this.value !== 'object' || this.value === null)
      return undefined;
    return this.value;
  }

  /** The string at `key` (null when missing), or undefined when this is not what was read ahead. */
  string(key: string): string | null | undefined {
    if (this.spec.kind !== 'string' || this.spec.key !== key || typeof this.value === 'object') return undefined;
    return this.value;
  }
}

/** `store.get(key)`, unless the gate already read it. */
export function readString(store: ReadModelStore, key: string, ahead?: ReadAheadResult): Promise<string | null> {
  const value = ahead?.string(key);
  return value !== undefined ? Promise.resolve(value) : store.get(key);
}

/** `store.hgetall(key)`, unless the gate already read it. */
export function readHash(store: ReadModelStore, key: string, ahead?: ReadAheadResult): Promise<Record<string, string>> {
  const value = ahead?.hash(key);
  return value !== undefined ? Promise.resolve(value) : store.hgetall(key);
}
