import { StoredEvent } from '../infrastructure/event-store/event-store.port';
import { WriteOp } from '../infrastructure/read-model/read-model-store.port';

/**
 * What a projection may read while applying an event: the read model as it will be once the
 * writes of the earlier events of the same batch are applied (they are not written yet).
 */
export interface ProjectionView {
  get(key: string): Promise<string | null>;
  /** The set (or null: the del) this batch last wrote at `key`; undefined when it wrote none. */
  written?(key: string): WriteOp | null | undefined;
  /**
   * What get() would answer, when the batch has it without a read (its own writes, what it read
   * or prefetched); undefined otherwise. Lets apply answer without awaiting anything.
   */
  known?(key: string): string | null | undefined;
}

/** What a projection's prefetch may ask for: values as the store holds them before the batch. */
export interface Prefetcher {
  /** One MGET for the keys not already known to the batch. */
  load(keys: readonly string[]): Promise<(string | null)[]>;
}

/**
 * A read-model projection: from one event to the writes it causes. Writes are set-like (set,
 * hset, zadd, del), so applying an event twice changes nothing.
 */
export interface Projection {
  readonly name: string;
  /**
   * The event types apply turns into writes (from its event guard); it returns [] for every other.
   * A runner whose projections all name theirs reads only those types from the store; absent: all.
   */
  readonly types?: readonly string[];
  apply(event: StoredEvent, view: ProjectionView): WriteOp[] | Promise<WriteOp[]>;
  /**
   * Called once per batch before apply: starts the batch's lookups together (the keys apply will
   * read, in one MGET; secrets to decrypt, concurrently) instead of one round trip per event. A
   * hint only: apply reads whatever it was not given. Never writes.
   */
  prefetch?(events: readonly StoredEvent[], reader: Prefetcher): Promise<void>;
}
