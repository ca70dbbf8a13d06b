import type { GlobalPosition, StoredEvent } from '../infrastructure/event-store/event-store.port';

/** Which of an account's events a read returns; every field narrows, none is required. */
export interface AuditFilter {
  types?: readonly string[];
  /** Streams named exactly (a resource id, resolved to the streams it could be). */
  streams?: readonly string[];
  /** Streams whose name starts with this (a resource type). */
  streamPrefix?: string;
  /** API key id (or system actor) in the event's metadata. */
  actor?: string;
  /** Recorded at or after. */
  from?: Date;
  /** Recorded at or before. */
  to?: Date;
}

export interface AuditRead {
  accountId: string;
  /** Strictly after this position; null: from the start. */
  after: GlobalPosition | null;
  limit: number;
  filter: AuditFilter;
}

/**
 * The audit log's read side: one account's events, in global order, straight from the event
 * store. Not a read model on purpose: the audit log is the event log, and what is verified must
 * be what is stored, not a copy (docs/audit.md). Like readAll, it never returns an event while
 * an event before it may still become visible, so a cursor never skips one.
 */
export interface AuditLogReader {
  read(query: AuditRead): Promise<StoredEvent[]>;
}

export const AUDIT_LOG = Symbol('AuditLogReader');
