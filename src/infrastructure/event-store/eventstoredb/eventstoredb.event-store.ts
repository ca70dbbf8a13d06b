import { EventStoreDBClient, FORWARDS, type ReadPosition, START, StreamNotFoundError } from '@eventstore/db-client';
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
} from '../event-store.port';
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

/**
 * A thin adapter over @eventstore/db-client. EventStoreDB enforces expected versions and orders
 * $all by commit itself; this class only translates shapes and errors.
 */
export class EventStoreDbEventStore implements EventStore {
  private readonly subscriptions = new Set<EventSubscription>();

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

  async append(streamId: string, events: NewEvent[], expected: ExpectedVersion): Promise<AppendResult> {
    if (events.length === 0) throw new Error('append needs at least one event');
    const expectedRevision = toExpectedRevision(expected);
    try {
      const result = await this.client.appendToStream(streamId, events.map(toEventData), { expectedRevision });
      return { nextExpectedVersion: Number(result.nextExpectedRevision), position: toGlobalPosition(result.position) };
    } catch (error) {
      throw toStoreError(error, streamId, expected);
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
      return events;
    } catch (error) {
      if (error instanceof StreamNotFoundError) return [];
      throw toStoreError(error);
    }
  }

  /**
   * Reading $all from a position includes the event at it, and system events count towards
   * maxCount, so this pages until it has maxCount of ours or reaches the end.
   */
  async readAll(options: ReadAllOptions): Promise<StoredEvent[]> {
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
          if (!isSystemEvent(event)) events.push(toStoredEvent(event));
          if (events.length === options.maxCount) break;
        }
        if (seen < pageSize) break;
      }
      return events;
    } catch (error) {
      throw toStoreError(error);
    }
  }

  subscribe(options: SubscribeOptions, handler: BatchHandler): EventSubscription {
    const subscription = new EventStoreDbSubscription(this.client, options.after, handler, this.logger);
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
