import { createHash } from 'node:crypto';
import { DomainError } from '../../shared/domain-error';
import type { Order, ReadModelStore } from '../../infrastructure/read-model/read-model-store.port';

/** Where a list stands: the sort value (a number) and the id of the last item a page showed. */
export interface CursorPosition {
  score: number;
  member: string;
}

/** A cursor belongs to one set of filters and one order: reusing it with others would skip or repeat items. */
export function cursorFingerprint(parts: readonly (string | undefined)[]): string {
  return createHash('sha256')
    .update(parts.map((p) => p ?? '').join('\u0000'))
    .digest('base64url')
    .slice(0, 10);
}

export function encodeCursor(position: CursorPosition, fingerprint: string): string {
  return Buffer.from(JSON.stringify([position.score, position.member, fingerprint])).toString('base64url');
}

export function decodeCursor(text: string, fingerprint: string): CursorPosition {
  let decoded: unknown;
  try {
    decoded = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
  } catch {
    decoded = null;
  }
  const [score, member, print] = Array.isArray(decoded) ? (decoded as unknown[]) : [];
  if (typeof score !== 'number' || !Number.isSafeInteger(score) || typeof member !== 'string' || member.length > 100)
    throw new DomainError('invalid_params', 'cursor is not a cursor this API returned', {
      param: 'cursor',
      reason: 'invalid_cursor',
    });
  if (print !== fingerprint)
    throw new DomainError('invalid_params', 'cursor was issued for other filters', {
      param: 'cursor',
      reason: 'invalid_cursor',
    });
  return { score, member };
}

export interface CursorPageRequest {
  limit: number;
  offset: number;
  cursor?: string;
  order: Order;
}

export interface CursorPagination {
  limit: number;
  offset: number;
  total: number;
  has_more: boolean;
  next_cursor: string | null;
}

/**
 * One page of a list kept as a sorted-set index of (score, id) beside its values: by offset, or
 * by cursor from just after the last item shown (a rank lookup, so the same cost at any depth,
 * and items inserted before it never shift it). `positionOf` gives a view's index entry back.
 */
export async function readCursorPage<T>(
  store: ReadModelStore,
  list: { index: string; valuePrefix: string; filters: readonly (string | undefined)[] },
  request: CursorPageRequest,
  decodeAll: (raws: readonly (string | null)[]) => T[],
  positionOf: (view: T) => CursorPosition,
): Promise<{ views: T[]; pagination: CursorPagination }> {
  const { limit, offset, cursor, order } = request;
  const fingerprint = cursorFingerprint([...list.filters, order]);
  const after = cursor !== undefined ? decodeCursor(cursor, fingerprint) : null;
  const page = after
    ? await store.pageAfter(list.index, list.valuePrefix, after, limit + 1, order)
    : await store.page(list.index, list.valuePrefix, offset, limit + 1, order);
  const views = decodeAll(page.values.slice(0, limit));
  const hasMore = page.values.length > limit;
  const last = views[views.length - 1];
  return {
    views,
    pagination: {
      limit,
      offset: after ? 0 : offset,
      total: page.total,
      has_more: hasMore,
      next_cursor: hasMore && last !== undefined ? encodeCursor(positionOf(last), fingerprint) : null,
    },
  };
}

/** The index entry of a view listed by creation: its created_at in ms and its id. */
export const byCreation = (view: { id: string; created_at: string }): CursorPosition => ({
  score: Date.parse(view.created_at),
  member: view.id,
});
