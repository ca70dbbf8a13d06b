import { Client } from 'pg';
import { createEventStore } from '../../src/infrastructure/event-store/event-store.factory';
import type { EventStore } from '../../src/infrastructure/event-store/event-store.port';
import { NOTIFY_CHANNEL } from '../../src/infrastructure/event-store/postgres/event-store.sql';
import { Follower, headPosition, newEvent, newPrefix, sleep, waitUntil } from '../contract/event-store/helpers';
import { SETTLE_DEADLINE_MS } from '../support/deadlines';
import { useIsolatedSchema } from '../support/postgres';

const { url, schema } = useIsolatedSchema('withheld_it');
/** An idle poll that never fires while the case runs: only a wake-up (and what it leads to) delivers. */
const POLL_NEVER_MS = 6 * 3_600_000;

/**
 * readAll hands out only events below the snapshot's xmin, so an append that commits while an
 * older transaction (any session, any schema of the cluster) is still open is held back. Its
 * wake-up comes once: the subscription must look again until it can read it. (CI on a loaded
 * machine: a follower woken by such an append read nothing and slept until its idle poll.)
 */
describe('PostgreSQL event store: an append held back behind an older transaction', () => {
  let store: EventStore;
  let blocker: Client;
  let listener: Client;
  const notified: string[] = [];

  beforeAll(async () => {
    store = await createEventStore({ url, schema, dataDir: '/nonexistent', idlePollMs: POLL_NEVER_MS });
    blocker = new Client({ connectionString: url });
    await blocker.connect();
    // Hears the store's own cross-process wake-up (LISTEN/NOTIFY), which the follower hears too.
    listener = new Client({ connectionString: url });
    await listener.connect();
    listener.on('notification', (message) => notified.push(message.payload ?? ''));
    await listener.query(`LISTEN ${NOTIFY_CHANNEL}`);
  });
  afterAll(async () => {
    await listener?.end();
    await blocker?.end();
    await store?.close();
  });

  it('is delivered to the follower it woke once the older transaction ends', async () => {
    const prefix = newPrefix('withheld');
    const head = await headPosition(store);
    const follower = new Follower(store, head, prefix);
    try {
      // A transaction with an id older than the append's, left open.
      await blocker.query('BEGIN');
      await blocker.query('SELECT pg_current_xact_id()');
      const event = newEvent();
      await store.append(`${prefix}-0`, [event], 'no_stream');
      // Committed, but held back while the older transaction is open.
      const visible = await store.readAll({ after: head, maxCount: 100 });
      expect(visible.filter((e) => e.streamId.startsWith(prefix))).toEqual([]);
      // Both wake-ups (in the process, and the NOTIFY) reach the follower while it is held back:
      // once the NOTIFY has arrived, give the follower's read after it time to finish.
      await waitUntil(
        () => notified.includes(schema),
        SETTLE_DEADLINE_MS,
        () => "the append's NOTIFY",
      );
      await sleep(500);
      await blocker.query('COMMIT');
      await follower.waitForCount(1);
      expect(follower.events.map((e) => e.id)).toEqual([event.id]);
    } finally {
      await follower.stop();
    }
  });
});
