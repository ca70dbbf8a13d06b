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

/** A page read one past the limit: its items (total, and the raw entries of limit + 1). */
interface RawPage<R> {
  total: number;
  entries: R[];
}

/**
 * The shared walk of the cursor lists: decode the cursor (bound to the list's filters and order),
 * read limit + 1 entries after it or at the offset, turn the first `limit` into views, and say
 * where the next page starts.
 */
async function cursorPage<R, T>(
  filters: readonly (string | undefined)[],
  request: CursorPageRequest,
  read: (after: CursorPosition | null, count: number) => Promise<RawPage<R>>,
  toViews: (entries: R[]) => T[] | Promise<T[]>,
  positionOf: (view: T) => CursorPosition,
): Promise<{ views: T[]; pagination: CursorPagination }> {
  const { limit, offset, cursor, order } = request;
  const fingerprint = cursorFingerprint([...filters, order]);
  const after = cursor !== undefined ? decodeCursor(cursor, fingerprint) : null;
  const page = await read(after, limit + 1);
  const views = await toViews(page.entries.slice(0, limit));
  const hasMore = page.entries.length > limit;
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

/**
 * One page of a list kept as a sorted-set index of (score, id) beside its values: by offset, or
 * by cursor from just after the last item shown (a rank lookup, so the same cost at any depth,
 * and items inserted before it never shift it). `positionOf` gives a view's index entry back.
 */
export function readCursorPage<T>(
  store: ReadModelStore,
  list: { index: string; valuePrefix: string; filters: readonly (string | undefined)[] },
  request: CursorPageRequest,
  decodeAll: (raws: readonly (string | null)[]) => T[],
  positionOf: (view: T) => CursorPosition,
): Promise<{ views: T[]; pagination: CursorPagination }> {
  const { offset, order } = request;
  return cursorPage(
    list.filters,
    request,
    async (after, count) => {
      const page = after
        ? await store.pageAfter(list.index, list.valuePrefix, after, count, order)
        : await store.page(list.index, list.valuePrefix, offset, count, order);
      return { total: page.total, entries: page.values };
    },
    decodeAll,
    positionOf,
  );
}

/**
 * readCursorPage for lists whose items are not single values (a hash per item): the index gives
 * the page's ids (by offset, or after the cursor at the same cost at any depth), `load` reads
 * their items.
 */
export function readCursorIds<T>(
  store: ReadModelStore,
  list: { index: string; filters: readonly (string | undefined)[] },
  request: CursorPageRequest,
  load: (ids: string[]) => Promise<T[]>,
  positionOf: (view: T) => CursorPosition,
): Promise<{ views: T[]; pagination: CursorPagination }> {
  const { offset, order } = request;
  return cursorPage(
    list.filters,
    request,
    async (after, count) => {
      if (after) {
        const { total, members } = await store.zrangeAfter(list.index, after, count, order);
        return { total, entries: members };
      }
      const [total, members] = await Promise.all([
        store.zcard(list.index),
        store.zrange(list.index, offset, count, order),
      ]);
      return { total, entries: members };
    },
    load,
    positionOf,
  );
}

/** The index entry of a view listed by creation: its created_at in ms and its id. */
export const byCreation = (view: { id: string; created_at: string }): CursorPosition => ({
  score: Date.parse(view.created_at),
  member: view.id,
});
