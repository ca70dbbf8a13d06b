import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import { type ClientConfig, Pool } from 'pg';
import type { EventStore } from './event-store.port';
import { type EventStoreLogger, silentLogger } from './event-store.logger';
import { EventStoreDbEventStore } from './eventstoredb/eventstoredb.event-store';
import { checkSchemaName, searchPathOption, setSearchPath } from './postgres/event-store.sql';
import { toStoreError } from './postgres/event-rows';
import { PgNotifications } from './postgres/pg-notifications';
import { openPgliteDb } from './postgres/pglite.open';
import { migrate, PostgresEventStore } from './postgres/postgres.event-store';
import { PgliteSqlClient, PgPoolSqlClient, type SqlClient } from './postgres/sql-client';

export interface CreateEventStoreOptions {
  /** postgres(ql)://, esdb(+discover)://, kurrentdb(+discover)://; unset: embedded PGlite. */
  url?: string;
  /** PGlite keeps its files in `<dataDir>/eventstore`. */
  dataDir: string;
  /** PostgreSQL/PGlite schema for the store's tables. */
  schema?: string;
  logger?: EventStoreLogger;
  /** PostgreSQL connections; at least the number of concurrent writers, plus one for readers. */
  poolSize?: number;
  /**
   * PostgreSQL/PGlite: how long an idle subscription waits for a change signal before it reads
   * anyway (250 ms by default); EventStoreDB pushes and has no poll.
   */
  idlePollMs?: number;
}

export const DEFAULT_EVENT_STORE_SCHEMA = 'event_store';
const ESDB_SCHEMES = new Set(['esdb', 'esdb+discover', 'kurrentdb', 'kurrentdb+discover']);

const schemeOf = (url: string) => /^([a-z][a-z0-9+.-]*):\/\//i.exec(url)?.[1]?.toLowerCase();

/** The adapter an event store URL names: embedded PGlite when unset; undefined for a scheme no adapter speaks. */
export function eventStoreKind(url: string | null | undefined): 'pglite' | 'postgres' | 'eventstoredb' | undefined {
  const trimmed = url?.trim();
  if (!trimmed) return 'pglite';
  const scheme = schemeOf(trimmed);
  if (scheme === 'postgres' || scheme === 'postgresql') return 'postgres';
  if (scheme !== undefined && ESDB_SCHEMES.has(scheme)) return 'eventstoredb';
  return undefined;
}

/** Picks the adapter from the URL and runs the SQL adapters' migrations before returning. */
export async function createEventStore(options: CreateEventStoreOptions): Promise<EventStore> {
  const logger = options.logger ?? silentLogger;
  const schema = checkSchemaName(options.schema ?? DEFAULT_EVENT_STORE_SCHEMA);
  const url = options.url?.trim() ?? '';
  switch (eventStoreKind(url)) {
    case 'pglite':
      return openPglite(join(options.dataDir, 'eventstore'), schema, logger, options.idlePollMs);
    case 'postgres':
      return openPostgres(url, schema, logger, options.poolSize, options.idlePollMs);
    case 'eventstoredb':
      return openEventStoreDb(url, logger);
    default:
      throw new Error(`unsupported event store URL scheme: ${schemeOf(url) ?? '(none)'}`);
  }
}

async function openPostgres(
  url: string,
  schema: string,
  logger: EventStoreLogger,
  poolSize = 20,
  idlePollMs?: number,
): Promise<EventStore> {
  const connection: ClientConfig = {
    connectionString: url,
    options: searchPathOption(schema),
    application_name: 'trunkline-event-store',
    connectionTimeoutMillis: 5000,
  };
  const pool = new Pool({ ...connection, max: poolSize });
  // Without a listener, an idle connection dropped by the server would crash the process.
  pool.on('error', (error) => logger.warn({ err: error }, 'event store: idle PostgreSQL connection failed'));
  const client = new PgPoolSqlClient(pool);
  await migrateOrClose(client, schema, logger);
  logger.info({ adapter: 'postgres', schema }, 'event store ready');
  const crossProcess = new PgNotifications(client, connection, schema, logger);
  return new PostgresEventStore(client, { logger, crossProcess, idlePollMs });
}

async function openPglite(
  dir: string,
  schema: string,
  logger: EventStoreLogger,
  idlePollMs?: number,
): Promise<EventStore> {
  let db: PGlite;
  try {
    await mkdir(dir, { recursive: true });
    db = await openPgliteDb(dir);
  } catch (error) {
    throw toStoreError(error);
  }
  const client = new PgliteSqlClient(db);
  await migrateOrClose(client, schema, logger, setSearchPath(schema));
  logger.info({ adapter: 'pglite', dir, schema }, 'event store ready');
  return new PostgresEventStore(client, { logger, idlePollMs });
}

async function openEventStoreDb(url: string, logger: EventStoreLogger): Promise<EventStore> {
  const store = EventStoreDbEventStore.connect(url, logger);
  logger.info({ adapter: 'eventstoredb' }, 'event store ready');
  return store;
}

async function migrateOrClose(
  client: SqlClient,
  schema: string,
  logger: EventStoreLogger,
  setup?: string,
): Promise<void> {
  try {
    if (setup) await client.query(setup);
    const { linked } = await migrate(client, schema);
    if (linked > 0)
      logger.info({ linked }, 'event store: hash chain computed for the events written before it (docs/audit.md)');
  } catch (error) {
    await client.close().catch(() => undefined);
    throw toStoreError(error);
  }
}
