import { createHash } from 'node:crypto';
import canonicalize from 'canonicalize';
import { isEncryptedSecret } from '../../shared/encrypted-secret';
import type { StoredEvent } from './event-store.port';

/**
 * The hash chain of every stream. Each event's hash is SHA-256 over the RFC 8785 (JCS) canonical
 * JSON of its record, and the record holds the hash of the event before it in its stream, so
 * changing, removing or reordering a stored event breaks every later link. docs/audit.md.
 */

/** What an event's hash covers: everything stored about it. */
export interface ChainedRecord {
  id: string;
  stream_id: string;
  revision: number;
  type: string;
  data: unknown;
  metadata: unknown;
  /** ISO 8601 with milliseconds and Z. */
  recorded_at: string;
  previous_hash: string | null;
}

/** The last event of a stream as the chain sees it; hash null: written before the chain existed. */
export interface ChainHead {
  revision: number;
  hash: string | null;
}

/** No stream yet: its first event has revision 0 and no previous hash. */
export const GENESIS: ChainHead = { revision: -1, hash: null };

/** The key a sealed secret is replaced with in the hashed form (and in every audit output). */
export const SEALED_KEY = 'sealed_sha256';

export const sha256Hex = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');

function canonical(value: unknown): string {
  const text = canonicalize(value);
  if (text === undefined) throw new Error('event record has no JSON form');
  return text;
}

/**
 * Every sealed secret (AES-GCM ciphertext) replaced by the SHA-256 of its canonical JSON. The hash
 * is computed over this form, so an export can leave the ciphertext out and still be verified, and
 * a destroyed data key (crypto-shredding) changes nothing that is hashed. Idempotent.
 */
export function sealSecrets(value: unknown): unknown {
  if (isEncryptedSecret(value)) return { [SEALED_KEY]: sha256Hex(canonical(value)) };
  if (value === null || typeof value !== 'object') return value;
  // Copied only along the paths that hold a secret: most events hold none and are returned as is.
  if (Array.isArray(value)) {
    let out: unknown[] | null = null;
    value.forEach((inner, i) => {
      const sealed = sealSecrets(inner);
      if (sealed !== inner) (out ??= [...value])[i] = sealed;
    });
    return out ?? value;
  }
  let out: Record<string, unknown> | null = null;
  for (const [key, inner] of Object.entries(value)) {
    const sealed = sealSecrets(inner);
    if (sealed !== inner) (out ??= { ...value })[key] = sealed;
  }
  return out ?? value;
}

/** SHA-256 (hex) of the canonical JSON of the record with its secrets sealed. */
export function eventHash(record: ChainedRecord): string {
  return sha256Hex(
    canonical({
      ...record,
      id: record.id.toLowerCase(),
      data: sealSecrets(record.data),
      metadata: sealSecrets(record.metadata),
    }),
  );
}

/** The record a stored event's hash was computed over. */
export const recordOf = (e: StoredEvent): ChainedRecord => ({
  id: e.id,
  stream_id: e.streamId,
  revision: e.revision,
  type: e.type,
  data: e.data,
  metadata: e.metadata,
  recorded_at: e.recordedAt.toISOString(),
  previous_hash: e.previousHash,
});

export interface ChainLink {
  hash: string;
  previous_hash: string | null;
}

/** The links of a batch appended after `head`: revisions follow the head's, each hash feeds the next. */
export function chainBatch(
  streamId: string,
  head: ChainHead,
  events: readonly { id: string; type: string; data: unknown; metadata?: unknown }[],
  recordedAt: string,
): ChainLink[] {
  let previous = head.hash;
  return events.map((event, i) => {
    const hash = eventHash({
      id: event.id,
      stream_id: streamId,
      revision: head.revision + 1 + i,
      type: event.type,
      data: event.data,
      metadata: event.metadata ?? {},
      recorded_at: recordedAt,
      previous_hash: previous,
    });
    const link = { hash, previous_hash: previous };
    previous = hash;
    return link;
  });
}

/**
 * The last heads this process saw, per stream, so an append can compute its links without a
 * read first. A stale entry costs one more round trip (the store answers with the real head).
 */
export class ChainHeadCache {
  private readonly heads = new Map<string, ChainHead>();

  constructor(private readonly capacity = 10_000) {}

  get(streamId: string): ChainHead | undefined {
    return this.heads.get(streamId);
  }

  set(streamId: string, head: ChainHead): void {
    this.heads.delete(streamId);
    this.heads.set(streamId, head);
    if (this.heads.size > this.capacity) this.heads.delete(this.heads.keys().next().value as string);
  }

  forget(streamId: string): void {
    this.heads.delete(streamId);
  }
}

/**
 * Appends to one stream from one process, one at a time: each chains to the head the previous one
 * left, so only another process can make a head stale. Streams do not wait for each other.
 */
export class StreamQueue {
  private readonly tails = new Map<string, Promise<unknown>>();

  run<T>(streamId: string, work: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(streamId) ?? Promise.resolve();
    const result = previous.then(work, work);
    const tail = result.catch(() => undefined);
    this.tails.set(streamId, tail);
    void tail.then(() => {
      if (this.tails.get(streamId) === tail) this.tails.delete(streamId);
    });
    return result;
  }
}
