/**
 * The event store port. Adapters: PostgreSQL (pg), PGlite (same SQL), EventStoreDB.
 * Every adapter runs test/contract/event-store.contract.ts.
 */

/**
 * A place in the global order of all events. Two numbers because no store has one that is both
 * gap-free and commit-ordered: PostgreSQL uses (transaction id, sequence), EventStoreDB
 * (commit, prepare). Compare with comparePositions; serialise with encodePosition.
 */
export interface GlobalPosition {
  readonly hi: bigint;
  readonly lo: bigint;
}

export function comparePositions(a: GlobalPosition, b: GlobalPosition): number {
  if (a.hi !== b.hi) return a.hi < b.hi ? -1 : 1;
  if (a.lo !== b.lo) return a.lo < b.lo ? -1 : 1;
  return 0;
}

export const encodePosition = (p: GlobalPosition): string => `${p.hi}:${p.lo}`;

export function decodePosition(text: string): GlobalPosition {
  const match = /^(\d+):(\d+)$/.exec(text);
  if (!match) throw new Error(`not a global position: ${text}`);
  return { hi: BigInt(match[1]), lo: BigInt(match[2]) };
}

export interface EventMetadata {
  /** API key id (or "system") that caused the event. */
  actor?: string;
  correlation_id?: string;
  causation_id?: string;
  [key: string]: unknown;
}

export interface NewEvent<T = unknown> {
  /** UUID chosen by the writer: appending the same ids again stores them once. */
  id: string;
  type: string;
  data: T;
  metadata?: EventMetadata;
}

export interface StoredEvent<T = unknown> {
  id: string;
  type: string;
  data: T;
  metadata: EventMetadata;
  streamId: string;
  /** 0-based index of the event in its stream. */
  revision: number;
  position: GlobalPosition;
  recordedAt: Date;
  /**
   * SHA-256 over the canonical JSON of this event's record (event-hash.ts), chained to the event
   * before it in its stream. null only for an EventStoreDB event written before the chain
   * existed (its events cannot be rewritten to add one): the chain starts after it.
   */
  hash: string | null;
  /** The hash of the previous event of the stream; null for the first, or after an unchained one. */
  previousHash: string | null;
}

/**
 * 'no_stream': the stream must not exist; 'stream_exists': it must; 'any': no check;
 * a number: the revision of the stream's last event must be exactly that.
 */
export type ExpectedVersion = 'no_stream' | 'stream_exists' | 'any' | number;

export interface AppendResult {
  /** Revision of the last event now in the stream; pass it as the next expected version. */
  nextExpectedVersion: number;
  /** Position of the last appended event. */
  position: GlobalPosition;
}

/** Every adapter turns its native conflict into this one error. */
export class VersionConflictError extends Error {
  constructor(
    readonly streamId: string,
    readonly expected: ExpectedVersion,
    readonly actual: number | 'no_stream' | 'unknown',
  ) {
    super(`version conflict on ${streamId}: expected ${String(expected)}, actual ${String(actual)}`);
    this.name = 'VersionConflictError';
  }
}

/** The store could not be reached or failed; callers answer 503, never lose acknowledged data. */
export class EventStoreUnavailableError extends Error {
  constructor(
    message: string,
    override readonly cause?: unknown,
  ) {
    super(message);
    this.name = 'EventStoreUnavailableError';
  }
}

export interface ReadStreamOptions {
  fromRevision?: number;
  maxCount?: number;
}

export interface ReadAllOptions {
  /** Read events strictly after this position; null reads from the start. */
  after: GlobalPosition | null;
  /** The most events returned (with `types`: of those types). */
  maxCount: number;
  /**
   * Only events of these types, filtered by the store (the others are neither sent nor parsed);
   * absent: every type. A reader that keeps a checkpoint learns how far the store looked from
   * lastPosition() taken before the read (catch-up.ts, readTypesPage).
   */
  types?: readonly string[];
}

export interface SubscribeOptions {
  after: GlobalPosition | null;
  batchSize?: number;
}

export interface EventSubscription {
  stop(): Promise<void>;
}

/**
 * Called with each batch in global order, one call at a time. If it throws, the subscription
 * retries the same batch after a back-off: nothing is skipped.
 */
export type BatchHandler = (events: StoredEvent[]) => Promise<void>;

export interface EventStore {
  /** Computes and stores each event's chain link (hash, previous hash) with it. */
  append(streamId: string, events: NewEvent[], expected: ExpectedVersion): Promise<AppendResult>;
  /** Events of one stream in revision order; [] when the stream does not exist. */
  readStream(streamId: string, options?: ReadStreamOptions): Promise<StoredEvent[]>;
  /**
   * Events of all streams in global order. Never returns an event while an event before it in
   * that order may still become visible (the commit-order trap of sequences).
   */
  readAll(options: ReadAllOptions): Promise<StoredEvent[]>;
  /**
   * The position of the last event, of any type, that readAll would return now (null: none yet).
   * Every event at or before it is visible to any readAll that starts afterwards.
   */
  lastPosition(): Promise<GlobalPosition | null>;
  /** Follows readAll from a checkpoint, waking promptly on new appends. */
  subscribe(options: SubscribeOptions, handler: BatchHandler): EventSubscription;
  ping(): Promise<void>;
  close(): Promise<void>;
}

export const EVENT_STORE = Symbol('EventStore');
