import type { EventStore, NewEvent } from '../../../src/infrastructure/event-store/event-store.port';

/** Every case of the event-store contract, by name. Adapters skip a case only with a reason. */
export const CASE = {
  createWithNoStream: 'append: creates a stream with no_stream and returns the last revision and position',
  noStreamConflict: 'append: rejects no_stream for an existing stream and appends nothing',
  streamExists: 'append: accepts stream_exists only for an existing stream',
  anyVersion: 'append: accepts any whether or not the stream exists',
  exactRevision: 'append: accepts the exact last revision and rejects a stale or future one, appending nothing',
  idempotent: 'append: stores a re-appended batch once and returns the original result, whatever the expected version',
  partialOverlap:
    'append: rejects a batch that partly overlaps stored event ids, or reuses ids of another stream, appending nothing',
  singleWinner: 'append: lets exactly one of concurrent writers win an expected revision',
  readStream: 'readStream: returns events in revision order from a revision up to maxCount, [] for an unknown stream',
  roundTrip: 'readStream: round-trips data and metadata as JSON and gives recordedAt as a Date',
  readAllOrder: 'readAll: returns events in global order strictly after a position, page by page',
  lateCommit: 'readAll: never returns an event while a transaction ordered before it can still commit',
  readAllTypes: 'readAll: with types, returns only events of those types in global order, maxCount counting only them',
  lastPosition:
    'lastPosition: reaches the last append (once no older transaction is open), and readAll returns nothing after it',
  batchesInOrder: 'subscribe: delivers batches in global order, one handler call at a time',
  wakeSameInstance: 'subscribe: wakes on appends through the same instance, without waiting for a poll',
  wakeOtherInstance: 'subscribe: wakes on appends through another instance, without waiting for a poll',
  handlerRetry: 'subscribe: retries a batch whose handler threw and skips nothing',
  stopWaits: 'subscribe: stop() resolves after the in-flight handler finished, and nothing is delivered after',
  concurrentWriters:
    'subscribe: a follower started before 16 concurrent writers receives every event once, in stream order',
  resume: 'subscribe: resumes after a checkpoint on a new store instance with exactly the later events',
  persistence: 'lifecycle: ping answers, and appended events survive close and reopen',
  chainLinks:
    'chain: each event stores the SHA-256 of its canonical record and the hash of the event before it in its stream',
  chainReadAll: 'chain: readAll gives every event with the same hash and previous hash as readStream',
  chainNewInstance: 'chain: a new instance, with no head cached, continues the chain of a stream',
  chainConcurrent: 'chain: concurrent appends with any leave one unbroken chain',
  chainOtherInstance: 'chain: a head cached by one instance goes stale when another appends, and the chain still holds',
  chainSealedSecrets: 'chain: sealed secrets are hashed by the digest of their ciphertext, so a redacted copy verifies',
} as const;

export type ContractCase = (typeof CASE)[keyof typeof CASE];

/** An append made in a transaction that stays open until commit(): another writer, mid-flight. */
export interface HeldAppend {
  commit(): Promise<void>;
}

export interface ContractOptions {
  /** Case name → why this adapter does not run it (printed on every run). */
  skip?: Partial<Record<ContractCase, string>>;
  /** Needed by CASE.lateCommit: start an append in a separate connection and keep it open. */
  holdOpenAppend?: (streamId: string, event: NewEvent) => Promise<HeldAppend>;
}

/** How a case wants an instance opened (adapters without the setting ignore it). */
export interface OpenSettings {
  /** A subscription's fallback poll while idle (PostgreSQL, PGlite). */
  idlePollMs?: number;
}

export interface ContractContext {
  /** The instance the cases share; replaced by reopen(). */
  store(): EventStore;
  /** Closes the shared instance and opens a new one on the same data. */
  reopen(settings?: OpenSettings): Promise<EventStore>;
  /** An additional instance on the same data (the caller closes it). */
  open(settings?: OpenSettings): Promise<EventStore>;
  options: ContractOptions;
}

export type CaseRegistrar = (name: ContractCase, body: () => Promise<void>, timeoutMs?: number) => void;
