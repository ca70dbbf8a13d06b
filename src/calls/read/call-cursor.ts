import { cursorFingerprint, decodeCursor as decode, encodeCursor as encode } from '../../platform/http/cursor';
import { ListCallsQueryDto } from './call.dto';

export interface CallCursor {
  startMs: number;
  callId: string;
}

/** A cursor belongs to one set of filters: reusing it with others would skip or repeat calls. */
export function filterFingerprint(q: ListCallsQueryDto): string {
  return cursorFingerprint([q.trunk_id, q.status, q.start_date, q.end_date, q.from, q.to, q.direction]);
}

export function encodeCursor(cursor: CallCursor, fingerprint: string): string {
  return encode({ score: cursor.startMs, member: cursor.callId }, fingerprint);
}

export function decodeCursor(text: string, fingerprint: string): CallCursor {
  const { score, member } = decode(text, fingerprint);
  return { startMs: score, callId: member };
}
