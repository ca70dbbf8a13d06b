import {
  comparePositions,
  type EventStore,
  type GlobalPosition,
  type StoredEvent,
} from '../infrastructure/event-store/event-store.port';

/** A follower of the event store that a shared read can bring up to date before it follows on its own. */
export interface CatchUpFollower {
  readonly name: string;
  /**
   * The event types it applies; null or absent: every type. A catch-up reads only these from the
   * store (for several followers, the types of all of them) and still moves its checkpoint past
   * the others.
   */
  readonly types?: readonly string[] | null;
  /** Loads where it stands (null: nothing applied); called before the first batch is handed over. */
  resume(): Promise<GlobalPosition | null>;
  /**
   * Applies a batch and its checkpoint at once: `through` when given (at or after the batch's last
   * event), else the last event. It applies the batch's events of its types and passes over the
   * rest (another follower's, in a shared catch-up). Called in order, one call at a time.
   */
  applyBatch(batch: StoredEvent[], through?: GlobalPosition): Promise<void>;
}

/** A page of readAll, and how far the store looked: every event of the page's types up to `through` is in it. */
export interface TypedPage {
  events: StoredEvent[];
  through: GlobalPosition | null;
}

const later = (a: GlobalPosition | null, b: GlobalPosition | null): GlobalPosition | null =>
  a === null ? b : b === null ? a : comparePositions(a, b) >= 0 ? a : b;

/**
 * readAll of `types` (null: every type) after `after`. A full page looked as far as its last
 * event; a short one looked as far as the store's last position taken before the read (every
 * event up to it was visible to the read), so a checkpoint may move there past events of other
 * types, and a restart never reads them again.
 */
export async function readTypesPage(
  store: EventStore,
  after: GlobalPosition | null,
  maxCount: number,
  types: readonly string[] | null,
): Promise<TypedPage> {
  const head = types ? await store.lastPosition() : null;
  const events = await store.readAll(types ? { after, maxCount, types } : { after, maxCount });
  const last = events.length > 0 ? events[events.length - 1].position : after;
  return { events, through: events.length === maxCount ? last : later(last, head) };
}

/** The types every follower reads, together (null as soon as one reads every type). */
export function typesOf(followers: readonly CatchUpFollower[]): readonly string[] | null {
  const types = new Set<string>();
  for (const follower of followers) {
    if (!follower.types) return null;
    for (const type of follower.types) types.add(type);
  }
  return [...types];
}

const after = (events: StoredEvent[], position: GlobalPosition | null): StoredEvent[] => {
  if (position === null) return events;
  const first = events.findIndex((e) => comparePositions(e.position, position) > 0);
  return first < 0 ? [] : first === 0 ? events : events.slice(first);
};

/**
 * Brings several followers up to the head of the store from one read: each page is read once (of
 * the types they apply, filtered by the store) and applied by every follower concurrently, while
 * the next page is already being read (one page ahead at most). A rebuild of N projections so
 * reads (and parses) the history once instead of N times. Each follower gets the page's events
 * after its own checkpoint, in order (it applies those of its types), and its checkpoint moves to
 * how far the page looked; it is done when a page comes back short, and a follower's own subscription then takes
 * over from its checkpoint. A failure is thrown as is: what was applied is checkpointed, and
 * each subscription goes on from there.
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
  const types = typesOf(followers);
  let next: Promise<TypedPage> | null = readTypesPage(events, start, pageSize, types);
  while (next) {
    const page: TypedPage = await next;
    const through = page.through;
    next = page.events.length < pageSize ? null : readTypesPage(events, through, pageSize, types);
    // Read ahead may fail while the page is applied: it is awaited (and thrown) on the next turn.
    next?.catch(() => undefined);
    if (through === null) return;
    await Promise.all(
      followers.map(async (follower, i) => {
        const from = positions[i];
        if (from !== null && comparePositions(through, from) <= 0) return;
        await follower.applyBatch(after(page.events, from), through);
        positions[i] = through;
      }),
    );
  }
}
