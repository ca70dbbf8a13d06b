import { RejectionPosition, rejectionPositionOf } from '../../rejections/read/rejection-changes.queries';
import { DomainError } from '../../shared/domain-error';

/**
 * Where a stream has got to in both of its orders: the sync feed's cursor for call records
 * (GET /v1/calls/changes) and the rejections' stored order. Every event's `id:` is the position
 * after it, so Last-Event-ID resumes both exactly.
 */
export interface StreamPosition {
  callsCursor: string;
  rejections: RejectionPosition;
}

const CURSOR = /^[A-Za-z0-9_-]{1,200}$/;

export function encodeStreamPosition(position: StreamPosition): string {
  const { storedMs, trunkId, id } = position.rejections;
  return Buffer.from(JSON.stringify(['live', position.callsCursor, [storedMs, trunkId, id]])).toString('base64url');
}

/** A position from a client's text; `param` names where it came from in the 400. */
export function decodeStreamPosition(text: string, param: string): StreamPosition {
  const refused = () => new DomainError('invalid_params', `${param} is not an event id this stream sent`, { param });
  if (!/^[A-Za-z0-9_-]{1,600}$/.test(text)) throw refused();
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
  } catch {
    throw refused();
  }
  const [kind, callsCursor, rejections] = Array.isArray(parsed) ? (parsed as unknown[]) : [];
  if (kind !== 'live' || typeof callsCursor !== 'string' || !CURSOR.test(callsCursor)) throw refused();
  return { callsCursor, rejections: rejectionPositionOf(rejections, param) };
}
