import {
  type AppendResult,
  type BatchHandler,
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
import { trackSubscription } from '../tracked-subscription';
import { type EventStoreLogger, silentLogger } from '../event-store.logger';
import * as sql from './event-store.sql';
import { eventsJson, expectedParams, toStoreError, toStoredEvent } from './event-rows';
import type { CrossProcessSignal } from './pg-notifications';
import { ChangeSignal, PollingSubscription } from './polling-subscription';
import type { SqlClient } from './sql-client';

export interface PostgresEventStoreOptions {
  logger?: EventStoreLogger;
  /** PostgreSQL: LISTEN/NOTIFY between processes. PGlite runs in one process and needs none. */
  crossProcess?: CrossProcessSignal;
  idlePollMs?: number;
}

/** Creates the schema, tables and append function; safe to run from several processes at once. */
export async function migrate(client: SqlClient, schema: string): Promise<void> {
  try {
    await client.transaction(async (tx) => {
      await tx.query(sql.LOCK_MIGRATIONS);
      await tx.query(sql.createSchema(schema));
      for (const ddl of sql.SCHEMA_DDL) await tx.query(ddl);
    });
  } catch (error) {
    throw toStoreError(error);
  }
}

const DEFAULT_BATCH_SIZE = 500;
const START = { afterTransaction: '0', afterPosition: '0' };

/** The event store over PostgreSQL or PGlite: the same SQL, one round trip per append. */
export class PostgresEventStore implements EventStore {
  private readonly changes = new ChangeSignal();
  private readonly subscriptions = new Set<EventSubscription>();
  private readonly logger: EventStoreLogger;
  private closed = false;

  constructor(
    private readonly client: SqlClient,
    private readonly options: PostgresEventStoreOptions = {},
  ) {
    this.logger = options.logger ?? silentLogger;
  }

  /** The connection, shared with the key vault (PGlite allows one instance per directory). */
  get sql(): SqlClient {
    return this.client;
  }

  async append(streamId: string, events: NewEvent[], expected: ExpectedVersion): Promise<AppendResult> {
    const params = { streamId, ...expectedParams(expected), eventsJson: eventsJson(events) };
    const [row] = await this.run(sql.appendEvents, params, streamId, expected);
    if (row.outcome === 'conflict') {
      const actual = row.stream_version === null ? 'no_stream' : Number(row.stream_version);
      throw new VersionConflictError(streamId, expected, actual);
    }
    if (row.outcome === 'appended') {
      this.changes.fire();
      this.options.crossProcess?.publish();
    }
    return {
      nextExpectedVersion: Number(row.stream_version),
      position: { hi: BigInt(row.transaction_id ?? 0), lo: BigInt(row.global_position ?? 0) },
    };
  }

  async readStream(streamId: string, options: ReadStreamOptions = {}): Promise<StoredEvent[]> {
    const params = { streamId, fromRevision: options.fromRevision ?? 0, maxCount: options.maxCount ?? null };
    return (await this.run(sql.readStream, params)).map(toStoredEvent);
  }

  async readAll(options: ReadAllOptions): Promise<StoredEvent[]> {
    const after = options.after ? afterParams(options.after) : START;
    return (await this.run(sql.readAll, { ...after, maxCount: options.maxCount })).map(toStoredEvent);
  }

  subscribe(options: SubscribeOptions, handler: BatchHandler): EventSubscription {
    if (this.closed) throw new Error('event store is closed'); // its loop would retry forever
    this.options.crossProcess?.listen(() => this.changes.fire());
    const subscription = new PollingSubscription({
      after: options.after,
      batchSize: options.batchSize ?? DEFAULT_BATCH_SIZE,
      idlePollMs: this.options.idlePollMs ?? 250,
      readAll: (after, maxCount) => this.readAll({ after, maxCount }),
      changes: this.changes,
      handler,
      logger: this.logger,
    });
    return trackSubscription(this.subscriptions, subscription);
  }

  async ping(): Promise<void> {
    await this.run(sql.ping, {});
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.all([...this.subscriptions].map((s) => s.stop()));
    await this.options.crossProcess?.close();
    await this.client.close();
  }

  private async run<P, R>(
    statement: sql.Statement<P, R>,
    params: P,
    streamId?: string,
    expected?: ExpectedVersion,
  ): Promise<R[]> {
    try {
      return (await this.client.query<R>(statement.text, statement.values(params))).rows;
    } catch (error) {
      throw toStoreError(error, streamId, expected);
    }
  }
}

const afterParams = (p: GlobalPosition) => ({ afterTransaction: p.hi.toString(), afterPosition: p.lo.toString() });
