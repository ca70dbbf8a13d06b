import {
  ANY,
  type AppendExpectedRevision,
  type EventData,
  jsonEvent,
  type JSONType,
  NO_STREAM,
  type Position,
  type RecordedEvent,
  STREAM_EXISTS,
  WrongExpectedVersionError,
} from '@eventstore/db-client';
import {
  type EventMetadata,
  EventStoreUnavailableError,
  type ExpectedVersion,
  type GlobalPosition,
  type NewEvent,
  type StoredEvent,
  VersionConflictError,
} from '../event-store.port';
import { redactCredentials } from '../event-store.logger';
import type { ChainLink } from '../event-hash';

/**
 * Where the chain link and the recording time travel in an EventStoreDB event: its metadata, under
 * a key of ours, taken out again on read. EventStoreDB's own `created` is set by the server after
 * the hash was computed, so the hashed recording time is ours.
 */
const CHAIN_KEY = 'trunkline_chain';

interface StoredChain {
  hash: string;
  previous_hash: string | null;
  recorded_at: string;
}

/** Translation between the port's shapes and @eventstore/db-client's. */

export function toExpectedRevision(expected: ExpectedVersion): AppendExpectedRevision {
  switch (expected) {
    case 'any':
      return ANY;
    case 'no_stream':
      return NO_STREAM;
    case 'stream_exists':
      return STREAM_EXISTS;
    default:
      if (!Number.isSafeInteger(expected) || expected < 0) throw new Error(`invalid expected revision: ${expected}`);
      return BigInt(expected);
  }
}

export function toEventData(event: NewEvent, link: ChainLink, recordedAt: string): EventData {
  const chain: StoredChain = { hash: link.hash, previous_hash: link.previous_hash, recorded_at: recordedAt };
  return jsonEvent({
    id: event.id,
    type: event.type,
    data: event.data as JSONType,
    metadata: { ...(event.metadata ?? {}), [CHAIN_KEY]: chain } as unknown as JSONType,
  });
}

/** EventStoreDB's (commit, prepare) log position: commit order, so readers never skip. */
export const toGlobalPosition = (position: Position | undefined): GlobalPosition =>
  // Servers before 22.6 omit positions on stream reads; those events sort first.
  position ? { hi: position.commit, lo: position.prepare } : { hi: 0n, lo: 0n };

export const toClientPosition = (position: GlobalPosition): Position => ({ commit: position.hi, prepare: position.lo });

/** System events ($-prefixed types: stream metadata, links, stats) are not ours to deliver. */
export const isSystemEvent = (event: RecordedEvent): boolean => event.type.startsWith('$');

/** An event appended before the chain existed has no link: hash null, and the chain starts after it. */
export function toStoredEvent(event: RecordedEvent): StoredEvent {
  const { [CHAIN_KEY]: chain, ...metadata } = isPlainObject(event.metadata)
    ? (event.metadata as Record<string, unknown>)
    : {};
  const link = isChain(chain) ? chain : null;
  return {
    id: event.id,
    type: event.type,
    data: event.data,
    metadata: metadata as EventMetadata,
    streamId: event.streamId,
    revision: Number(event.revision),
    position: toGlobalPosition(event.position),
    recordedAt: link ? new Date(link.recorded_at) : event.created,
    hash: link?.hash ?? null,
    previousHash: link?.previous_hash ?? null,
  };
}

const isChain = (value: unknown): value is StoredChain =>
  isPlainObject(value) &&
  typeof (value as StoredChain).hash === 'string' &&
  typeof (value as StoredChain).recorded_at === 'string';

const isPlainObject = (value: unknown): boolean =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Uint8Array);

/** Conflicts become VersionConflictError; every other client error means the store failed. */
export function toStoreError(error: unknown, streamId?: string, expected?: ExpectedVersion): Error {
  if (error instanceof VersionConflictError || error instanceof EventStoreUnavailableError) return error;
  if (error instanceof WrongExpectedVersionError && streamId !== undefined && expected !== undefined) {
    const actual = error.actualVersion;
    return new VersionConflictError(
      streamId,
      expected,
      typeof actual === 'bigint' ? Number(actual) : actual === NO_STREAM ? 'no_stream' : 'unknown',
    );
  }
  const message = error instanceof Error ? error.message : String(error);
  return new EventStoreUnavailableError(`event store unavailable: ${redactCredentials(message)}`, error);
}
