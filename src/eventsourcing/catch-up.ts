import {
  comparePositions,
  type EventStore,
  type GlobalPosition,
  type StoredEvent,
} from '../infrastructure/event-store/event-store.port';

/** A follower of the event store that a shared read can bring up to date before it follows on its own. */
export interface CatchUpFollower {
  readonly name: string;
  /** Loads where it stands (null: nothing applied); called before the first batch is handed over. */
  resume(): Promise<GlobalPosition | null>;
  /** Applies a batch and its checkpoint at once. Called in order, one call at a time. */
  applyBatch(batch: StoredEvent[]): Promise<void>;
}

const after = (events: StoredEvent[], position: GlobalPosition | null): StoredEvent[] => {
  if (position === null) return events;
  const first = events.findIndex((e) => comparePositions(e.position, position) > 0);
  return first < 0 ? [] : first === 0 ? events : events.slice(first);
};

/**
 * Brings several followers up to the head of the store from one read: each page is read once and
 * applied by every follower concurrently, while the next page is already being read. A rebuild
 * of N projections so reads (and parses) the history once instead of N times. Each follower gets
 * only the events after its own checkpoint, in order; it is done when a page comes back short,
 * and a follower's own subscription then takes over from its checkpoint. A failure is thrown as
 * is: what was applied is checkpointed, and each subscription goes on from there.
 */
export async function catchUpTogether(
  events: EventStore,
  followers: readonly CatchUpFollower[],
  pageSize: number,
): Promise<void> {
  const positions = await Promise.all(followers.map((f) => f.resume()));
  const start = positions.reduce<GlobalPosition | null | undefined>(
    (min, p) => (min === undefined ? p : min === null || p === null ? null : comparePositions(p, min) < 0 ? p : min),
    undefined,
  );
  if (start === undefined) return;
  let next: Promise<StoredEvent[]> | null = events.readAll({ after: start, maxCount: pageSize });
  while (next) {
    const page: StoredEvent[] = await next;
    if (page.length === 0) return;
    next =
      page.length < pageSize ? null : events.readAll({ after: page[page.length - 1].position, maxCount: pageSize });
    // Read ahead may fail while the page is applied: it is awaited (and thrown) on the next turn.
    next?.catch(() => undefined);
    await Promise.all(
      followers.map(async (follower, i) => {
        const mine = after(page, positions[i]);
        if (mine.length === 0) return;
        await follower.applyBatch(mine);
        positions[i] = mine[mine.length - 1].position;
      }),
    );
  }
}
