import { tmpdir } from 'node:os';
import { Pool } from 'pg';
import { createEventStore } from '../../src/infrastructure/event-store/event-store.factory';
import { EventStoreUnavailableError, type NewEvent } from '../../src/infrastructure/event-store/event-store.port';
import { appendEvents } from '../../src/infrastructure/event-store/postgres/event-store.sql';
import { chainBatch, GENESIS } from '../../src/infrastructure/event-store/event-hash';
import { eventsJson } from '../../src/infrastructure/event-store/postgres/event-rows';
import { PostgresEventStore } from '../../src/infrastructure/event-store/postgres/postgres.event-store';
import { PgPoolSqlClient } from '../../src/infrastructure/event-store/postgres/sql-client';
import { connectToSchema, useIsolatedSchema } from '../support/postgres';
import { eventStoreContract, type HeldAppend, type OpenSettings } from './event-store.contract';
import { newEvent } from './event-store/helpers';

const { url, schema } = useIsolatedSchema('es_contract');
const open = (settings?: OpenSettings) => createEventStore({ url, schema, dataDir: tmpdir(), ...settings });

/** The store's own append function, in a transaction on a connection of its own, left open. */
async function holdOpenAppend(streamId: string, event: NewEvent): Promise<HeldAppend> {
  const client = await connectToSchema(schema, url);
  await client.query('BEGIN');
  const recordedAt = new Date().toISOString();
  const batch = eventsJson([event], chainBatch(streamId, GENESIS, [event], recordedAt), recordedAt);
  await client.query(
    appendEvents.text,
    appendEvents.values({
      streamId,
      expected: 'no_stream',
      expectedRevision: null,
      headRevision: GENESIS.revision,
      headHash: GENESIS.hash,
      eventsJson: batch,
    }),
  );
  return {
    commit: async () => {
      await client.query('COMMIT');
      await client.end();
    },
  };
}

eventStoreContract('postgres', open, { holdOpenAppend });

describe('PostgreSQL event store specifics', () => {
  const password = 's3cret-Passw0rd';
  const unreachable = `postgres://trunkline:${password}@127.0.0.1:1/trunkline`;

  const expectUnavailable = async (promise: Promise<unknown>): Promise<void> => {
    const error = await promise.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(EventStoreUnavailableError);
    expect(String((error as Error).message)).not.toContain(password);
    expect(String((error as Error).stack)).not.toContain(password);
  };

  it('creates its tables in the configured schema only', async () => {
    const store = await open();
    const client = await connectToSchema(schema, url);
    try {
      const { rows } = await client.query<{ table_schema: string; table_name: string }>(
        `SELECT table_schema, table_name FROM information_schema.tables WHERE table_name IN ('events', 'streams') AND table_schema = $1 ORDER BY 2`,
        [schema],
      );
      expect(rows.map((r) => r.table_name)).toEqual(['events', 'streams']);
    } finally {
      await client.end();
      await store.close();
    }
  });

  it('fails to open an unreachable PostgreSQL with EventStoreUnavailableError, without the password', async () => {
    await expectUnavailable(createEventStore({ url: unreachable, schema, dataDir: tmpdir() }));
  });

  it('answers append, reads and ping with EventStoreUnavailableError when the server is unreachable', async () => {
    const pool = new Pool({ connectionString: unreachable, connectionTimeoutMillis: 2000 });
    const store = new PostgresEventStore(new PgPoolSqlClient(pool));
    try {
      await expectUnavailable(store.append('trunk-1', [newEvent()], 'no_stream'));
      await expectUnavailable(store.readStream('trunk-1'));
      await expectUnavailable(store.readAll({ after: null, maxCount: 10 }));
      await expectUnavailable(store.ping());
    } finally {
      await store.close();
    }
  });

  it('rejects an unsupported URL scheme without echoing the URL', async () => {
    const error = await createEventStore({ url: `mysql://root:${password}@db/x`, dataDir: tmpdir() }).catch(
      (e: Error) => e,
    );
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).not.toContain(password);
  });
});
