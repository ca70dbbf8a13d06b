import { createHash } from 'node:crypto';
import { decodePosition, encodePosition, type GlobalPosition } from '../../infrastructure/event-store/event-store.port';
import { DomainError } from '../../shared/domain-error';
import type { ListAuditEventsQueryDto } from './audit-events.dto';

/** Both halves of a position are 63-bit at most (xid8 and bigint in the SQL store). */
const LIMIT = 2n ** 63n;

/** A cursor belongs to one set of filters: reusing it with others would skip or repeat events. */
export function filterFingerprint(q: ListAuditEventsQueryDto): string {
  const parts = [q.from, q.to, q.resource_type, q.resource_id, q.actor, q.type].map((p) => p ?? '');
  return createHash('sha256').update(parts.join('\u0000')).digest('base64url').slice(0, 10);
}

export const encodeCursor = (after: GlobalPosition, fingerprint: string): string =>
  Buffer.from(JSON.stringify([encodePosition(after), fingerprint])).toString('base64url');

export function decodeCursor(text: string, fingerprint: string): GlobalPosition {
  let position: GlobalPosition;
  let print: unknown;
  try {
    const [at, issuedFor] = JSON.parse(Buffer.from(text, 'base64url').toString('utf8')) as [unknown, unknown];
    position = decodePosition(String(at));
    if (position.hi >= LIMIT || position.lo >= LIMIT) throw new Error('out of range');
    print = issuedFor;
  } catch {
    throw new DomainError('invalid_params', 'cursor is not a cursor this API returned', { param: 'cursor' });
  }
  if (print !== fingerprint)
    throw new DomainError('invalid_params', 'cursor was issued for other filters', { param: 'cursor' });
  return position;
}
