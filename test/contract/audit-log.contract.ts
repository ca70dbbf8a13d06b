import { randomUUID } from 'node:crypto';
import type { AuditLogReader, AuditRead } from '../../src/eventsourcing/audit-log.port';
import {
  comparePositions,
  type EventStore,
  type GlobalPosition,
  type StoredEvent,
} from '../../src/infrastructure/event-store/event-store.port';
import { visible } from '../support/visible-events';

export interface AuditLogFixture {
  store: EventStore;
  reader: AuditLogReader;
  close(): Promise<void>;
}

/**
 * The conformance suite of the audit log's read port: every adapter (SQL over PostgreSQL and
 * PGlite, the global-log filter over any event store) answers the same. Each case works in
 * accounts of its own, so the log's other events never matter.
 */
export function auditLogContract(adapterName: string, open: () => Promise<AuditLogFixture>): void {
  describe(`AuditLogReader contract (${adapterName})`, () => {
    let fixture: AuditLogFixture;
    beforeAll(async () => {
      fixture = await open();
    });
    afterAll(() => fixture?.close());

    const append = (stream: string, accountId: string, type = 'Recorded', actor = 'key_a') =>
      fixture.store.append(
        stream,
        [{ id: randomUUID(), type, data: { account_id: accountId }, metadata: { actor } }],
        'any',
      );

    async function readAll(query: Omit<AuditRead, 'after' | 'limit'>, limit: number): Promise<StoredEvent[]> {
      const found: StoredEvent[] = [];
      let after: GlobalPosition | null = null;
      for (;;) {
        const page = await fixture.reader.read({ ...query, after, limit });
        expect(page.length).toBeLessThanOrEqual(limit);
        found.push(...page);
        if (page.length < limit) return found;
        after = page[page.length - 1].position;
      }
    }

    it("returns only the account's events, in global order, strictly after the cursor, up to the limit", async () => {
      const [mine, theirs] = [`acct_${randomUUID().slice(0, 8)}`, `acct_${randomUUID().slice(0, 8)}`];
      const written: string[] = [];
      let last: GlobalPosition | null = null;
      for (let i = 0; i < 7; i += 1) {
        await append(`trunk-${mine}-${i % 3}`, mine);
        await append(`trunk-${theirs}-${i % 2}`, theirs);
        ({ position: last } = await fixture.store.append(
          `reservation-${mine}-${i}`,
          [{ id: randomUUID(), type: 'Reserved', data: { owner_id: mine } }],
          'any',
        ));
        written.push(`trunk-${mine}-${i % 3}`);
      }
      await visible(fixture.store, last!);
      const all = await readAll({ accountId: mine, filter: {} }, 3);
      expect(all.map((e) => e.streamId)).toEqual(written);
      expect(all.every((e) => (e.data as { account_id: string }).account_id === mine)).toBe(true);
      expect(all.every((e) => typeof e.hash === 'string')).toBe(true);
      const rest = await fixture.reader.read({ accountId: mine, after: all[2].position, limit: 100, filter: {} });
      expect(rest.map((e) => e.id)).toEqual(all.slice(3).map((e) => e.id));
      expect(
        await fixture.reader.read({ accountId: `acct_${randomUUID()}`, after: null, limit: 10, filter: {} }),
      ).toEqual([]);
    });

    it('filters by type, exact streams, stream prefix, actor and recorded time, and by all of them at once', async () => {
      const account = `acct_${randomUUID().slice(0, 8)}`;
      await append(`trunk-${account}-1`, account, 'TrunkCreated', 'key_a');
      await append(`apikey-${account}-1`, account, 'ApiKeyIssued', 'key_b');
      await new Promise((resolve) => setTimeout(resolve, 20));
      const middle = new Date();
      await new Promise((resolve) => setTimeout(resolve, 20));
      await append(`trunk-${account}-1`, account, 'TrunkUpdated', 'key_b');
      await visible(fixture.store, (await append(`trunk-${account}-2`, account, 'TrunkCreated', 'key_a')).position);
      const types = (filter: AuditRead['filter']) =>
        readAll({ accountId: account, filter }, 100).then((events) =>
          events.map((e) => `${e.streamId.split('-')[0]}:${e.type}`),
        );
      expect(await types({ types: ['TrunkCreated'] })).toEqual(['trunk:TrunkCreated', 'trunk:TrunkCreated']);
      expect(await types({ streams: [`trunk-${account}-1`, 'trunk-none'] })).toEqual([
        'trunk:TrunkCreated',
        'trunk:TrunkUpdated',
      ]);
      expect(await types({ streamPrefix: 'apikey-' })).toEqual(['apikey:ApiKeyIssued']);
      expect(await types({ actor: 'key_b' })).toEqual(['apikey:ApiKeyIssued', 'trunk:TrunkUpdated']);
      expect(await types({ from: middle })).toEqual(['trunk:TrunkUpdated', 'trunk:TrunkCreated']);
      expect(await types({ to: middle })).toEqual(['trunk:TrunkCreated', 'apikey:ApiKeyIssued']);
      expect(
        await types({ types: ['TrunkCreated', 'TrunkUpdated'], streamPrefix: 'trunk-', actor: 'key_a', from: middle }),
      ).toEqual(['trunk:TrunkCreated']);
    });

    it('pages through the log of an account while it is written to, skipping and repeating nothing', async () => {
      const account = `acct_${randomUUID().slice(0, 8)}`;
      const positions: GlobalPosition[] = [];
      const writers = Promise.all(
        Array.from({ length: 4 }, async (_, w) => {
          for (let i = 0; i < 10; i += 1) positions.push((await append(`trunk-${account}-${w}`, account)).position);
        }),
      );
      const seen: StoredEvent[] = [];
      let after: GlobalPosition | null = null;
      let done = false;
      // Done once every write returned and is visible to readers: only then may two empty pages end the read.
      const finished = writers.then(() =>
        visible(
          fixture.store,
          positions.reduce((a, b) => (comparePositions(a, b) >= 0 ? a : b)),
        ),
      );
      void finished.then(
        () => (done = true),
        () => (done = true),
      );
      for (let quiet = 0; quiet < 2;) {
        const page = await fixture.reader.read({ accountId: account, after, limit: 5, filter: {} });
        seen.push(...page);
        if (page.length > 0) after = page[page.length - 1].position;
        quiet = done && page.length === 0 ? quiet + 1 : 0;
      }
      await finished;
      expect(seen).toHaveLength(40);
      expect(new Set(seen.map((e) => e.id)).size).toBe(40);
    });
  });
}
