import {
  EventStoreUnavailableError,
  type ExpectedVersion,
  type NewEvent,
  type StoredEvent,
  VersionConflictError,
} from '../event-store.port';
import { redactCredentials } from '../event-store.logger';
import type { ChainLink } from '../event-hash';
import type { AppendParams, EventRow } from './event-store.sql';
import type { SqlClient } from './sql-client';

/** Translation between the port's shapes and the SQL module's rows and parameters. */

export function expectedParams(expected: ExpectedVersion): Pick<AppendParams, 'expected' | 'expectedRevision'> {
  if (typeof expected !== 'number') return { expected, expectedRevision: null };
  if (!Number.isSafeInteger(expected) || expected < 0) throw new Error(`invalid expected revision: ${expected}`);
  return { expected: 'revision', expectedRevision: expected };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A batch is checked before it reaches the database: such mistakes are bugs, not outages. */
export function checkBatch(events: readonly NewEvent[]): void {
  if (events.length === 0) throw new Error('append needs at least one event');
  const notUuid = events.find((e) => !UUID.test(e.id));
  if (notUuid) throw new Error(`event id is not a UUID: ${JSON.stringify(notUuid.id)}`);
  const ids = new Set(events.map((e) => e.id.toLowerCase()));
  if (ids.size !== events.length) throw new Error('append batch repeats an event id');
}

/** The append function's batch: each event with the time it is recorded at and its chain link. */
export function eventsJson(events: readonly NewEvent[], links: readonly ChainLink[], recordedAt: string): string {
  return JSON.stringify(
    events.map((e, i) => ({
      id: e.id,
      type: e.type,
      data: e.data,
      metadata: e.metadata ?? {},
      recorded_at: recordedAt,
      hash: links[i].hash,
      previous_hash: links[i].previous_hash,
    })),
  );
}

export function toStoredEvent(row: EventRow): StoredEvent {
  return {
    id: row.event_id,
    type: row.type,
    data: row.data,
    metadata: row.metadata,
    streamId: row.stream_id,
    revision: Number(row.revision),
    position: { hi: BigInt(row.transaction_id), lo: BigInt(row.global_position) },
    recordedAt: row.recorded_at instanceof Date ? row.recorded_at : new Date(row.recorded_at),
    hash: row.hash,
    previousHash: row.previous_hash,
  };
}

const PG_CONFLICT_CODES = new Set([
  '23505', // unique_violation: the same event id raced in from another stream's append
]);

/** Conflicts stay conflicts; anything else from the driver means the store failed: callers answer 503. */
export function toStoreError(error: unknown, streamId?: string, expected?: ExpectedVersion): Error {
  if (error instanceof VersionConflictError || error instanceof EventStoreUnavailableError) return error;
  const code = (error as { code?: unknown } | null)?.code;
  if (streamId !== undefined && expected !== undefined && PG_CONFLICT_CODES.has(String(code))) {
    return new VersionConflictError(streamId, expected, 'unknown');
  }
  // Duck-typed: a rejection need not be an Error of this realm (WASM glue, vm sandboxes).
  const message = typeof (error as Error | null)?.message === 'string' ? (error as Error).message : String(error);
  const suffix = typeof code === 'string' ? ` (${code})` : '';
  return new EventStoreUnavailableError(`event store unavailable: ${redactCredentials(message)}${suffix}`, error);
}

/**
 * Runs DDL in one transaction under an advisory lock, so processes starting together migrate one
 * after the other ("IF NOT EXISTS" alone races). For the tables that live beside the events.
 */
export async function migrateLocked(client: SqlClient, lock: string, ddl: readonly string[]): Promise<void> {
  try {
    await client.transaction(async (tx) => {
      await tx.query(lock);
      for (const statement of ddl) await tx.query(statement);
    });
  } catch (error) {
    throw toStoreError(error);
  }
}
