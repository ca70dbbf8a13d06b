import { randomUUID } from 'node:crypto';
import { eventHash } from '../../src/infrastructure/event-store/event-hash';
import { EVENT_STORE } from '../../src/infrastructure/event-store/event-store.port';
import type { PostgresEventStore } from '../../src/infrastructure/event-store/postgres/postgres.event-store';
import { connectToSchema, useIsolatedSchema } from '../support/postgres';
import { provisionAccount, startTestApp, type TestApp } from '../support/test-app';
import { trunkBody } from '../support/trunk-requests';
import { allAuditEvents, waitFor } from './audit-support';

/** Runs SQL on the event store's own tables, behind the service's back. */
type Sql = (text: string, params?: unknown[]) => Promise<unknown[]>;

const later = (a: string, b: string): boolean => {
  const [ah, al] = a.split(':').map(BigInt);
  const [bh, bl] = b.split(':').map(BigInt);
  return ah > bh || (ah === bh && al >= bl);
};

/**
 * Someone with write access to the database edits, deletes, reorders and inserts event rows
 * directly; GET /v1/audit-events/verify finds each, at the first event that no longer holds.
 */
function tamperCases(start: () => Promise<{ app: TestApp; sql: Sql; stop: () => Promise<void> }>): void {
  let app: TestApp;
  let sql: Sql;
  let stop: () => Promise<void>;

  beforeAll(async () => {
    ({ app, sql, stop } = await start());
  });
  afterAll(() => stop?.());

  /** An account whose trunk stream has revisions 0..3, verified intact to begin with. */
  async function audited() {
    const account = await provisionAccount(app, ['full'], `Tampered ${randomUUID().slice(0, 6)}`);
    const created = await account.client.post('/v1/trunks', trunkBody());
    expect(created.status).toBe(201);
    const trunk = created.body.id as string;
    await account.client.patch(`/v1/trunks/${trunk}`, { name: `First ${trunk}` });
    await account.client.patch(`/v1/trunks/${trunk}`, { name: `Second ${trunk}` });
    await account.client.post(`/v1/trunks/${trunk}/rotate-password`);
    const stream = `trunk-${trunk}`;
    const events = await allAuditEvents(account.client, `resource_type=trunk&resource_id=${trunk}`);
    expect(events.map((e) => e.revision)).toEqual([0, 1, 2, 3]);
    const verify = async () => (await account.client.get('/v1/audit-events/verify')).body;
    expect(await verify()).toMatchObject({ verified: true, break: null });
    return { account, stream, events, verify };
  }

  it('finds an edited event: its hash no longer matches its content', async () => {
    const { stream, events, verify } = await audited();
    await sql(
      `UPDATE events SET data = jsonb_set(data, '{changes,name}', '"Forged name"') WHERE stream_id = $1 AND revision = 1`,
      [stream],
    );
    expect(await verify()).toMatchObject({
      verified: false,
      break: {
        reason: 'hash_mismatch',
        stream_id: stream,
        revision: 1,
        position: events[1].position,
        event_id: events[1].id,
      },
    });
  });

  it('finds a deleted event in the middle of a stream: the next one does not follow', async () => {
    const { stream, events, verify } = await audited();
    await sql('DELETE FROM events WHERE stream_id = $1 AND revision = 1', [stream]);
    const found = await verify();
    expect(found.verified).toBe(false);
    // The next event of the stream no longer follows; a checkpoint recorded between the two
    // (the checkpointer runs every 200 ms here) sealed the deleted event and breaks first.
    if (found.break.reason === 'checkpoint_mismatch') {
      expect(later(found.break.position, events[1].position)).toBe(true);
      expect(later(events[2].position, found.break.position)).toBe(true);
    } else {
      expect(found.break).toMatchObject({
        reason: 'revision_gap',
        stream_id: stream,
        revision: 2,
        position: events[2].position,
      });
    }
  });

  it('finds a deleted last event through the checkpoint that sealed it', async () => {
    const { account, stream, events, verify } = await audited();
    const last = events[3].position;
    const sealed = await waitFor(
      () => allAuditEvents(account.client, 'type=AuditCheckpointRecorded'),
      (checkpoints) => checkpoints.some((c) => later(c.data.through, last)),
    );
    const checkpoint = sealed.find((c) => later(c.data.through, last));
    await sql('DELETE FROM events WHERE stream_id = $1 AND revision = 3', [stream]);
    expect(await verify()).toMatchObject({
      verified: false,
      break: { reason: 'checkpoint_mismatch', position: checkpoint.position },
    });
  });

  it('finds two events swapped within their stream', async () => {
    const { stream, events, verify } = await audited();
    await sql('UPDATE events SET revision = -1 WHERE stream_id = $1 AND revision = 1', [stream]);
    await sql('UPDATE events SET revision = 1 WHERE stream_id = $1 AND revision = 2', [stream]);
    await sql('UPDATE events SET revision = 2 WHERE stream_id = $1 AND revision = -1', [stream]);
    expect(await verify()).toMatchObject({
      verified: false,
      break: { reason: 'revision_gap', stream_id: stream, revision: 2, position: events[1].position },
    });
  });

  it('finds an event inserted into a stream, even one whose own hash was computed the right way', async () => {
    const { account, stream, events, verify } = await audited();
    await sql('UPDATE events SET revision = -revision - 1 WHERE stream_id = $1 AND revision >= 2', [stream]);
    await sql('UPDATE events SET revision = -revision WHERE stream_id = $1 AND revision < 0', [stream]);
    const forged = {
      id: randomUUID(),
      stream_id: stream,
      revision: 2,
      type: 'TrunkUpdated',
      data: {
        trunk_id: stream.slice(6),
        account_id: account.accountId,
        changes: { name: 'Inserted' },
        updated_at: events[1].occurred_at,
      },
      metadata: { actor: account.keyId },
      recorded_at: events[1].occurred_at,
      previous_hash: events[1].hash,
    };
    await sql(
      `INSERT INTO events (event_id, stream_id, revision, type, data, metadata, recorded_at, hash, previous_hash)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
      [
        forged.id,
        stream,
        2,
        forged.type,
        JSON.stringify(forged.data),
        JSON.stringify(forged.metadata),
        forged.recorded_at,
        eventHash(forged),
        forged.previous_hash,
      ],
    );
    expect(await verify()).toMatchObject({
      verified: false,
      break: { reason: 'revision_gap', stream_id: stream, revision: 3, position: events[2].position },
    });
  });

  it("leaves every other account's log verified", async () => {
    const { verify } = await audited();
    expect(await verify()).toMatchObject({ verified: true });
  });
}

describe('audit log tamper evidence on PostgreSQL', () => {
  const { url, schema } = useIsolatedSchema('audit_tamper');
  tamperCases(async () => {
    const app = await startTestApp({
      EVENT_STORE_URL: url,
      EVENT_STORE_SCHEMA: schema,
      MASTER_KEY: Buffer.alloc(32, 9).toString('base64'),
      PROVIDER_VALIDATION: 'format',
      AUDIT_CHECKPOINT_INTERVAL_MS: '200',
    });
    const client = await connectToSchema(schema, url);
    return {
      app,
      sql: async (text, params) => (await client.query(text, params)).rows,
      stop: async () => {
        await client.end();
        await app.stop();
      },
    };
  });
});

describe('audit log tamper evidence on PGlite', () => {
  tamperCases(async () => {
    const app = await startTestApp({ AUDIT_CHECKPOINT_INTERVAL_MS: '200' });
    // The embedded store is one connection inside the service: the raw SQL goes through it.
    const store = app.running.app.get<PostgresEventStore>(EVENT_STORE);
    return { app, sql: async (text, params) => (await store.sql.query(text, params)).rows, stop: () => app.stop() };
  });
});
