import {
  BatchHandler,
  EventStore,
  EventSubscription,
  StoredEvent,
} from '../../src/infrastructure/event-store/event-store.port';

/** An event as a spec gives it: a domain event, optionally with how it was stored. */
export type SpecEvent = { type: string; data: object; stored?: StoredAs };
export type StoredAs = Partial<Pick<StoredEvent, 'id' | 'streamId' | 'revision' | 'recordedAt'>>;

/** When every spec event was recorded, unless it says otherwise (webhook events take it as created_at). */
export const RECORDED_AT = new Date('2026-11-21T10:00:00.000Z');

export const storedAs = <E extends SpecEvent>(stored: StoredAs, event: E): E => ({ ...event, stored });

/**
 * The event store as a follower sees it: each batch handed to its subscription when the spec says,
 * one at a time, awaited until applied. Nothing is appended or read back.
 */
export class ScriptedFeed implements EventStore {
  private handler: BatchHandler | null = null;

  subscribe(_options: unknown, handler: BatchHandler): EventSubscription {
    this.handler = handler;
    return { stop: async () => void (this.handler = null) };
  }

  async deliver(batch: StoredEvent[]): Promise<void> {
    if (!this.handler) throw new Error('nothing follows the feed: start the follower first');
    if (batch.length > 0) await this.handler(batch);
  }

  async readAll(): Promise<StoredEvent[]> {
    return [];
  }
  async lastPosition(): Promise<null> {
    return null;
  }
  async readStream(): Promise<StoredEvent[]> {
    return [];
  }
  async append(): Promise<never> {
    throw new Error('a projection spec appends nothing');
  }
  async ping(): Promise<void> {}
  async close(): Promise<void> {}
}

/**
 * Stored events in the order first given: position n for the n-th distinct event, revisions
 * counted per stream. A repeated event is the same stored event (same id, position, revision).
 */
export function storedEvents(...groups: SpecEvent[][]): StoredEvent[][] {
  const seen = new Map<string, StoredEvent>();
  const revisions = new Map<string, number>();
  return groups.map((group) =>
    group.map((event) => {
      const key = JSON.stringify(event);
      const known = seen.get(key);
      if (known) return known;
      const stored = toStored(event, seen.size + 1, revisions);
      seen.set(key, stored);
      return stored;
    }),
  );
}

function toStored({ type, data, stored = {} }: SpecEvent, n: number, revisions: Map<string, number>): StoredEvent {
  const streamId = stored.streamId ?? streamOf(data);
  const revision = stored.revision ?? revisions.get(streamId) ?? 0;
  revisions.set(streamId, revision + 1);
  return {
    id: stored.id ?? `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
    type,
    data,
    metadata: {},
    streamId,
    revision,
    position: { hi: 1n, lo: BigInt(n) },
    recordedAt: stored.recordedAt ?? RECORDED_AT,
    hash: null,
    previousHash: null,
  };
}

/** A delivery's events also name its endpoint, a rule's its trunk: the first id present names the stream. */
const STREAM_IDS = ['delivery_id', 'rule_id', 'endpoint_id', 'key_id', 'trunk_id', 'batch_id', 'account_id'];

function streamOf(data: object): string {
  const fields = data as Record<string, unknown>;
  const id = STREAM_IDS.find((field) => typeof fields[field] === 'string');
  return id ? `${id}:${String(fields[id])}` : 'spec';
}
