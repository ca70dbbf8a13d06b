import { createHash } from 'node:crypto';
import { DomainError } from '../../shared/domain-error';
import { ListCallsQueryDto } from './call.dto';

export interface CallCursor {
  startMs: number;
  callId: string;
}

/** A cursor belongs to one set of filters: reusing it with others would skip or repeat calls. */
export function filterFingerprint(q: ListCallsQueryDto): string {
  const parts = [q.trunk_id, q.status, q.start_date, q.end_date, q.from, q.to, q.direction].map((p) => p ?? '');
  return createHash('sha256').update(parts.join('\u0000')).digest('base64url').slice(0, 10);
}

export function encodeCursor(cursor: CallCursor, fingerprint: string): string {
  return Buffer.from(JSON.stringify([cursor.startMs, cursor.callId, fingerprint])).toString('base64url');
}

export function decodeCursor(text: string, fingerprint: string): CallCursor {
  try {
    const [startMs, callId, print] = JSON.parse(Buffer.from(text, 'base64url').toString('utf8')) as [
      unknown,
      unknown,
      unknown,
    ];
    if (
      typeof startMs !== 'number' ||
      !Number.isSafeInteger(startMs) ||
      typeof callId !== 'string' ||
      callId.length > 100
    )
      throw new Error('shape');
    if (print !== fingerprint)
      throw new DomainError('invalid_params', 'cursor was issued for other filters', {
        param: 'cursor',
        reason: 'invalid_cursor',
      });
    return { startMs, callId };
  } catch (error) {
    if (error instanceof DomainError) throw error;
    throw new DomainError('invalid_params', 'cursor is not a cursor this API returned', {
      param: 'cursor',
      reason: 'invalid_cursor',
    });
  }
}
