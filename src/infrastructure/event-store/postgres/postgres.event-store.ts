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
import { checkBatch, eventsJson, expectedParams, toStoreError, toStoredEvent } from './event-rows';
import { chainBatch, type ChainHead, ChainHeadCache, GENESIS, StreamQueue } from '../event-hash';
import { upgradeToChain } from './chain-backfill';
import type { CrossProcessSignal } from './pg-notifications';
import { ChangeSignal, PollingSubscription } from './polling-subscription';
import type { SqlClient } from './sql-client';

export interface PostgresEventStoreOptions {
  logger?: EventStoreLogger;
  /** PostgreSQL: LISTEN/NOTIFY between processes. PGlite runs in one process and needs none. */
  crossProcess?: CrossProcessSignal;
  idlePollMs?: number;
}

/**
 * Creates the schema, tables and append function, and brings a store from before the hash chain
 * up to it (returns how many stored events got their link); safe to run from several processes
 * at once.
 */
export async function migrate(client: SqlClient, schema: string): Promise<{ linked: number }> {
  try {
    return await client.transaction(async (tx) => {
      await tx.query(sql.LOCK_MIGRATIONS);
      await tx.query(sql.createSchema(schema));
      for (const ddl of sql.SCHEMA_DDL) await tx.query(ddl);
      const linked = await upgradeToChain(tx);
      for (const ddl of sql.FUNCTION_DDL) await tx.query(ddl);
      return { linked };
    });
  } catch (error) {
    throw toStoreError(error);
  }
}

const DEFAULT_BATCH_SIZE = 500;
const START = { afterTransaction: '0', afterPosition: '0' };
/** Chaining to a head another process has just moved: bounded, each try learns the real head. */
const MAX_CHAIN_ATTEMPTS = 20;
/** Never the revision of a head: the store answers 'stale' with the real one. */
const UNKNOWN_HEAD: ChainHead = { revision: -2, hash: null };

/** The event store over PostgreSQL or PGlite: the same SQL, one round trip per append. */
export class PostgresEventStore implements EventStore {
  private readonly changes = new ChangeSignal();
  private readonly subscriptions = new Set<EventSubscription>();
  private readonly logger: EventStoreLogger;
  private readonly heads = new ChainHeadCache();
  private readonly queue = new StreamQueue();
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
    checkBatch(events);
    return this.queue.run(streamId, () => this.appendChained(streamId, events, expected));
  }

  private async appendChained(streamId: string, events: NewEvent[], expected: ExpectedVersion): Promise<AppendResult> {
    const recordedAt = new Date().toISOString();
    let head = expected === 'no_stream' ? GENESIS : (this.heads.get(streamId) ?? UNKNOWN_HEAD);
    for (let attempt = 1; ; attempt++) {
      const links = chainBatch(streamId, head, events, recordedAt);
      const params = {
        streamId,
        ...expectedParams(expected),
        headRevision: head.revision,
        headHash: head.hash,
        eventsJson: eventsJson(events, links, recordedAt),
      };
      const [row] = await this.run(sql.appendEvents, params, streamId, expected);
      const version = row.stream_version === null ? null : Number(row.stream_version);
      if (row.outcome === 'stale' && attempt < MAX_CHAIN_ATTEMPTS) {
        head = version === null ? GENESIS : { revision: version, hash: row.head_hash };
        continue;
      }
      if (row.outcome === 'conflict' || row.outcome === 'stale') {
        if (version !== null) this.heads.set(streamId, { revision: version, hash: row.head_hash });
        throw new VersionConflictError(streamId, expected, version ?? 'no_stream');
      }
      if (row.outcome === 'appended') {
        this.heads.set(streamId, { revision: Number(version), hash: row.head_hash });
        this.changes.fire();
        this.options.crossProcess?.publish();
      }
      return {
        nextExpectedVersion: Number(version),
        position: { hi: BigInt(row.transaction_id ?? 0), lo: BigInt(row.global_position ?? 0) },
      };
    }
  }

  async readStream(streamId: string, options: ReadStreamOptions = {}): Promise<StoredEvent[]> {
    const params = { streamId, fromRevision: options.fromRevision ?? 0, maxCount: options.maxCount ?? null };
    const events = (await this.run(sql.readStream, params)).map(toStoredEvent);
    const last = events[events.length - 1];
    // Read to its end: what the next append chains to (commands read their stream, then append).
    if (last && (options.maxCount === undefined || events.length < options.maxCount))
      this.heads.set(streamId, { revision: last.revision, hash: last.hash });
    return events;
  }

  async readAll(options: ReadAllOptions): Promise<StoredEvent[]> {
    const after = options.after ? afterParams(options.after) : START;
    const rows = options.types
      ? await this.run(sql.readAllOfTypes, { ...after, maxCount: options.maxCount, types: options.types })
      : await this.run(sql.readAll, { ...after, maxCount: options.maxCount });
    return rows.map(toStoredEvent);
  }

  async lastPosition(): Promise<GlobalPosition | null> {
    const [row] = await this.run(sql.lastPosition, {});
    return row ? { hi: BigInt(row.transaction_id), lo: BigInt(row.global_position) } : null;
  }

  subscribe(options: SubscribeOptions, handler: BatchHandler): EventSubscription {
    if (this.closed) throw new Error('event store is closed'); // its loop would retry forever
    this.options.crossProcess?.listen(() => this.changes.fire());
    const subscription = new PollingSubscription({
      after: options.after,
      batchSize: options.batchSize ?? DEFAULT_BATCH_SIZE,
      idlePollMs: this.options.idlePollMs ?? 250,
      readAll: (after, maxCount) => this.readAll({ after, maxCount }),
      withheldAfter: async (after) => {
        const [row] = await this.run(sql.withheldAfter, after ? afterParams(after) : START);
        return row?.withheld === true;
      },
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
