import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { PRE_CHAIN_APPEND, PRE_CHAIN_DDL } from '../../bench/audit/pre-chain-schema';
import { createEventStore } from '../../src/infrastructure/event-store/event-store.factory';
import { eventHash, recordOf } from '../../src/infrastructure/event-store/event-hash';
import type { EventStore, StoredEvent } from '../../src/infrastructure/event-store/event-store.port';
import { createSchema, setSearchPath } from '../../src/infrastructure/event-store/postgres/event-store.sql';
import { connectToSchema, useIsolatedSchema } from '../support/postgres';

/** A store filled by the code before the hash chain, then opened by today's: every old event gets its link. */
interface Raw {
  query(text: string, params?: unknown[]): Promise<unknown>;
  close(): Promise<void>;
}

const STREAMS = ['trunk-conn_upgrade1', 'apikey-key_upgrade1', 'account-acct_upgrade1'];

async function fillPreChain(raw: Raw): Promise<void> {
  for (const ddl of PRE_CHAIN_DDL) await raw.query(ddl);
  for (const [s, stream] of STREAMS.entries()) {
    for (let i = 0; i <= s + 1; i += 1) {
      const events = JSON.stringify([
        { id: randomUUID(), type: 'Recorded', data: { account_id: 'acct_upgrade1', i, secret: null }, metadata: {} },
      ]);
      await raw.query(PRE_CHAIN_APPEND, [stream, i === 0 ? 'no_stream' : 'revision', i === 0 ? null : i - 1, events]);
    }
  }
}

function expectChained(events: StoredEvent[]): void {
  events.forEach((event, i) => {
    expect(event.revision).toBe(i);
    expect(event.previousHash).toBe(i === 0 ? null : events[i - 1].hash);
    expect(eventHash(recordOf(event))).toBe(event.hash);
  });
}

function upgradeCases(open: (logs: string[]) => Promise<EventStore>, raw: () => Promise<Raw>): void {
  it('links every event written before the chain once, and appends continue the chain', async () => {
    const prepared = await raw();
    await fillPreChain(prepared);
    await prepared.close();

    const logs: string[] = [];
    let store = await open(logs);
    try {
      expect(logs).toEqual(['linked 9']);
      for (const stream of STREAMS) expectChained(await store.readStream(stream));
      await store.append(STREAMS[0], [{ id: randomUUID(), type: 'After', data: { n: 1 } }], 1);
      expectChained(await store.readStream(STREAMS[0]));
    } finally {
      await store.close();
    }

    store = await open(logs);
    try {
      expect(logs).toEqual(['linked 9']); // nothing left to link on the next start
      await store.append(STREAMS[1], [{ id: randomUUID(), type: 'After', data: { n: 2 } }], 'any');
      expectChained(await store.readStream(STREAMS[1]));
    } finally {
      await store.close();
    }

    const after = await raw();
    try {
      // The old append function is gone: a process still running the old code cannot add unchained rows.
      await expect(after.query(PRE_CHAIN_APPEND, ['trunk-late', 'any', null, '[]'])).rejects.toThrow(/append_events/);
    } finally {
      await after.close();
    }
  });
}

const logger = (logs: string[]) => ({
  info: (obj: object) => {
    if ('linked' in obj) logs.push(`linked ${String((obj as { linked: number }).linked)}`);
  },
  warn: () => undefined,
});

describe('event store upgrade to the hash chain (PostgreSQL)', () => {
  const { url, schema } = useIsolatedSchema('es_upgrade');
  upgradeCases(
    (logs) => createEventStore({ url, schema, dataDir: tmpdir(), logger: logger(logs) }),
    async () => {
      const client = await connectToSchema(schema, url);
      await client.query(createSchema(schema));
      return { query: (text, params) => client.query(text, params), close: () => client.end() };
    },
  );
});

describe('event store upgrade to the hash chain (PGlite)', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'trunkline-upgrade-'));
  afterAll(() => rm(dataDir, { recursive: true, force: true }));
  const schema = 'event_store';
  upgradeCases(
    (logs) => createEventStore({ dataDir, logger: logger(logs) }),
    async () => {
      await mkdir(join(dataDir, 'eventstore'), { recursive: true });
      const db = await PGlite.create(join(dataDir, 'eventstore'));
      await db.query(createSchema(schema));
      await db.query(setSearchPath(schema));
      return { query: (text, params) => db.query(text, params), close: () => db.close() };
    },
  );
});
