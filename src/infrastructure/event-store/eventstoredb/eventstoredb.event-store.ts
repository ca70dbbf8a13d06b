import {
  BACKWARDS,
  END,
  EventStoreDBClient,
  FORWARDS,
  NO_STREAM,
  type ReadPosition,
  START,
  StreamNotFoundError,
} from '@eventstore/db-client';
import { trackSubscription } from '../tracked-subscription';
import {
  type AppendResult,
  type BatchHandler,
  comparePositions,
  type EventStore,
  type EventSubscription,
  type ExpectedVersion,
  type GlobalPosition,
  type NewEvent,
  type ReadAllOptions,
  type ReadStreamOptions,
  type StoredEvent,
  type SubscribeOptions,
  VersionConflictError,
} from '../event-store.port';
import { chainBatch, type ChainHead, ChainHeadCache, GENESIS, StreamQueue } from '../event-hash';
import { type EventStoreLogger, silentLogger } from '../event-store.logger';
import {
  isSystemEvent,
  toClientPosition,
  toEventData,
  toExpectedRevision,
  toGlobalPosition,
  toStoredEvent,
  toStoreError,
} from './eventstoredb.mapping';
import { EventStoreDbSubscription } from './eventstoredb.subscription';

/** Any stream name works for a liveness probe; reading a missing stream is the cheapest call. */
const PING_STREAM = 'trunkline-ping';
/** Chaining to a head another process has just moved ('any', 'stream_exists'): bounded retries. */
const MAX_CHAIN_ATTEMPTS = 20;
/** Largest page a subscription hands over when the caller names none (as the PostgreSQL adapter). */
const DEFAULT_BATCH_SIZE = 500;

/**
 * A thin adapter over @eventstore/db-client. EventStoreDB enforces expected versions and orders
 * $all by commit itself; this class only translates shapes and errors.
 */
export class EventStoreDbEventStore implements EventStore {
  private readonly subscriptions = new Set<EventSubscription>();
  private readonly heads = new ChainHeadCache();
  private readonly queue = new StreamQueue();

  constructor(
    private readonly client: EventStoreDBClient,
    private readonly logger: EventStoreLogger = silentLogger,
  ) {}

  /** The client, shared with the key vault. */
  get native(): EventStoreDBClient {
    return this.client;
  }

  /** The client (v6) knows esdb:// and esdb+discover://; kurrentdb:// is the same protocol renamed. */
  static connect(url: string, logger?: EventStoreLogger): EventStoreDbEventStore {
    const esdbUrl = url.replace(
      /^kurrentdb(\+discover)?:\/\//i,
      (_m, discover: string | undefined) => `esdb${discover ?? ''}://`,
    );
    try {
      return new EventStoreDbEventStore(EventStoreDBClient.connectionString(esdbUrl), logger);
    } catch (error) {
      throw toStoreError(error); // a malformed URL would otherwise be echoed with its password
    }
  }

  /**
   * Chains the batch to the stream's head and appends it expecting exactly that head, so the
   * links hold whatever else is written: the caller's expectation is checked against the head first.
   */
  async append(streamId: string, events: NewEvent[], expected: ExpectedVersion): Promise<AppendResult> {
    if (events.length === 0) throw new Error('append needs at least one event');
    toExpectedRevision(expected); // rejects a malformed expectation before any round trip
    return this.queue.run(streamId, () => this.appendChained(streamId, events, expected));
  }

  private async appendChained(streamId: string, events: NewEvent[], expected: ExpectedVersion): Promise<AppendResult> {
    const recordedAt = new Date().toISOString();
    for (let attempt = 1; ; attempt++) {
      const head = await this.headFor(streamId, expected);
      const links = chainBatch(streamId, head, events, recordedAt);
      const data = events.map((event, i) => toEventData(event, links[i], recordedAt));
      const expectedRevision = head.revision < 0 ? NO_STREAM : BigInt(head.revision);
      try {
        const result = await this.client.appendToStream(streamId, data, { expectedRevision });
        const nextExpectedVersion = Number(result.nextExpectedRevision);
        this.heads.set(streamId, { revision: nextExpectedVersion, hash: links[links.length - 1].hash });
        return { nextExpectedVersion, position: toGlobalPosition(result.position) };
      } catch (error) {
        this.heads.forget(streamId);
        const mapped = toStoreError(error, streamId, expected);
        const anyHead = expected === 'any' || expected === 'stream_exists';
        if (!(mapped instanceof VersionConflictError) || !anyHead || attempt >= MAX_CHAIN_ATTEMPTS) throw mapped;
      }
    }
  }

  /** The head to chain to, checked against the caller's expectation. */
  private async headFor(streamId: string, expected: ExpectedVersion): Promise<ChainHead> {
    if (expected === 'no_stream') return GENESIS;
    const cached = this.heads.get(streamId);
    const fresh = cached && (typeof expected !== 'number' || cached.revision === expected);
    const head = fresh ? cached : await this.readHead(streamId);
    const actual = head.revision < 0 ? 'no_stream' : head.revision;
    if (typeof expected === 'number' && head.revision !== expected)
      throw new VersionConflictError(streamId, expected, actual);
    if (expected === 'stream_exists' && head.revision < 0) throw new VersionConflictError(streamId, expected, actual);
    return head;
  }

  private async readHead(streamId: string): Promise<ChainHead> {
    try {
      const read = this.client.readStream(streamId, { direction: BACKWARDS, fromRevision: END, maxCount: 1 });
      for await (const resolved of read) {
        if (resolved.event)
          return { revision: Number(resolved.event.revision), hash: toStoredEvent(resolved.event).hash };
      }
      return GENESIS;
    } catch (error) {
      if (error instanceof StreamNotFoundError) return GENESIS;
      throw toStoreError(error);
    }
  }

  async readStream(streamId: string, options: ReadStreamOptions = {}): Promise<StoredEvent[]> {
    if (options.maxCount === 0) return [];
    const events: StoredEvent[] = [];
    try {
      const read = this.client.readStream(streamId, {
        fromRevision: BigInt(options.fromRevision ?? 0),
        maxCount: options.maxCount,
        direction: FORWARDS,
      });
      for await (const resolved of read) if (resolved.event) events.push(toStoredEvent(resolved.event));
      const last = events[events.length - 1];
      if (last && (options.maxCount === undefined || events.length < options.maxCount))
        this.heads.set(streamId, { revision: last.revision, hash: last.hash });
      return events;
    } catch (error) {
      if (error instanceof StreamNotFoundError) return [];
      throw toStoreError(error);
    }
  }

  /**
   * Reading $all from a position includes the event at it, and system events count towards
   * maxCount, so this pages until it has maxCount of ours or reaches the end. With `types`, the
   * others are passed over here, as system events are: the official client (v6) filters by type
   * only on subscribeToAll, and a read that ends on a subscription's caught-up signal is not one
   * this adapter can prove against a server here (its conformance suite needs EVENTSTORE_URL).
   */
  async readAll(options: ReadAllOptions): Promise<StoredEvent[]> {
    const wanted = options.types ? new Set(options.types) : null;
    const events: StoredEvent[] = [];
    let cursor: GlobalPosition | null = options.after;
    try {
      while (events.length < options.maxCount) {
        const pageSize = options.maxCount - events.length + 1;
        const from: ReadPosition = cursor ? toClientPosition(cursor) : START;
        let seen = 0;
        for await (const resolved of this.client.readAll({
          fromPosition: from,
          maxCount: pageSize,
          direction: FORWARDS,
        })) {
          seen += 1;
          const event = resolved.event;
          if (!event) continue;
          const position = toGlobalPosition(event.position);
          if (cursor && comparePositions(position, cursor) <= 0) continue;
          cursor = position;
          if (!isSystemEvent(event) && (!wanted || wanted.has(event.type))) events.push(toStoredEvent(event));
          if (events.length === options.maxCount) break;
        }
        if (seen < pageSize) break;
      }
      return events;
    } catch (error) {
      throw toStoreError(error);
    }
  }

  /** The last event of $all, system events included: a position readAll may start after. */
  async lastPosition(): Promise<GlobalPosition | null> {
    try {
      for await (const resolved of this.client.readAll({ direction: BACKWARDS, fromPosition: END, maxCount: 1 }))
        if (resolved.event) return toGlobalPosition(resolved.event.position);
      return null;
    } catch (error) {
      throw toStoreError(error);
    }
  }

  subscribe(options: SubscribeOptions, handler: BatchHandler): EventSubscription {
    const subscription = new EventStoreDbSubscription(
      this.client,
      options.after,
      options.batchSize ?? DEFAULT_BATCH_SIZE,
      handler,
      this.logger,
    );
    return trackSubscription(this.subscriptions, subscription);
  }

  async ping(): Promise<void> {
    try {
      for await (const resolved of this.client.readStream(PING_STREAM, { maxCount: 1 })) void resolved;
    } catch (error) {
      if (!(error instanceof StreamNotFoundError)) throw toStoreError(error);
    }
  }

  async close(): Promise<void> {
    await Promise.all([...this.subscriptions].map((s) => s.stop()));
    await this.client.dispose();
  }
}
