import { randomUUID } from 'node:crypto';
import type { IdempotencyStore, StoredResponse } from '../../src/idempotency/idempotency-store.port';

export interface IdempotencyStoreHarness {
  /** A store on a namespace no other case uses. */
  create(): Promise<IdempotencyStore>;
  /** Once, after every case: removes test data, closes connections. */
  teardown(): Promise<void>;
}

const CLAIM_TTL = 60_000;
const DAY = 24 * 60 * 60 * 1000;
const created: StoredResponse = {
  status: 201,
  contentType: 'application/json; charset=utf-8',
  body: '{"id":"conn_1"}',
};
const scope = () => `acct_${randomUUID().slice(0, 8)}`;

async function claimed(store: IdempotencyStore, account: string, key: string, fingerprint = 'fp-1'): Promise<string> {
  const outcome = await store.claim(account, key, fingerprint, CLAIM_TTL);
  if (outcome.kind !== 'claimed') throw new Error(`expected a claim, got ${outcome.kind}`);
  return outcome.token;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export function describeIdempotencyStoreContract(adapter: string, harness: IdempotencyStoreHarness): void {
  describe(`IdempotencyStore contract (${adapter})`, () => {
    afterAll(() => harness.teardown());

    it('claims a new key and tells a second claim it is in progress, with the first fingerprint', async () => {
      const store = await harness.create();
      const account = scope();
      await claimed(store, account, 'k');
      expect(await store.claim(account, 'k', 'fp-2', CLAIM_TTL)).toEqual({ kind: 'in_progress', fingerprint: 'fp-1' });
    });

    it('of many concurrent claims of one key, exactly one wins', async () => {
      const store = await harness.create();
      const account = scope();
      const outcomes = await Promise.all(Array.from({ length: 20 }, () => store.claim(account, 'k', 'fp', CLAIM_TTL)));
      expect(outcomes.filter((o) => o.kind === 'claimed')).toHaveLength(1);
      expect(outcomes.filter((o) => o.kind === 'in_progress')).toHaveLength(19);
    });

    it('answers the stored response to every claim once completed', async () => {
      const store = await harness.create();
      const account = scope();
      const token = await claimed(store, account, 'k');
      await store.complete(account, 'k', token, created, DAY);
      const expected = { kind: 'completed', fingerprint: 'fp-1', response: created };
      expect(await store.claim(account, 'k', 'fp-1', CLAIM_TTL)).toEqual(expected);
      expect(await store.claim(account, 'k', 'fp-other', CLAIM_TTL)).toEqual(expected);
    });

    it('keeps an empty body and no content type as they were', async () => {
      const store = await harness.create();
      const account = scope();
      const token = await claimed(store, account, 'k');
      const empty: StoredResponse = { status: 204, contentType: null, body: '' };
      await store.complete(account, 'k', token, empty, DAY);
      expect(await store.claim(account, 'k', 'fp-1', CLAIM_TTL)).toMatchObject({ response: empty });
    });

    it('frees a released key for the next claim', async () => {
      const store = await harness.create();
      const account = scope();
      const token = await claimed(store, account, 'k');
      await store.release(account, 'k', token);
      expect((await store.claim(account, 'k', 'fp-2', CLAIM_TTL)).kind).toBe('claimed');
    });

    it('ignores a complete or release with another token', async () => {
      const store = await harness.create();
      const account = scope();
      await claimed(store, account, 'k');
      await store.complete(account, 'k', 'not-the-token', created, DAY);
      await store.release(account, 'k', 'not-the-token');
      expect((await store.claim(account, 'k', 'fp-1', CLAIM_TTL)).kind).toBe('in_progress');
    });

    it('keeps the keys of each scope apart', async () => {
      const store = await harness.create();
      const [first, second] = [scope(), scope()];
      await claimed(store, first, 'k');
      expect((await store.claim(second, 'k', 'fp-1', CLAIM_TTL)).kind).toBe('claimed');
    });

    it('lets a claim lapse after its ttl, so a crashed holder does not lock the key', async () => {
      const store = await harness.create();
      const account = scope();
      const stale = (await store.claim(account, 'k', 'fp-1', 50)) as { token: string };
      await sleep(120);
      const fresh = await claimed(store, account, 'k', 'fp-2');
      await store.complete(account, 'k', stale.token, created, DAY);
      expect(await store.claim(account, 'k', 'fp-2', CLAIM_TTL)).toEqual({ kind: 'in_progress', fingerprint: 'fp-2' });
      await store.complete(account, 'k', fresh, created, DAY);
      expect((await store.claim(account, 'k', 'fp-2', CLAIM_TTL)).kind).toBe('completed');
    });

    it('forgets a completed key after its retention', async () => {
      const store = await harness.create();
      const account = scope();
      const token = await claimed(store, account, 'k');
      await store.complete(account, 'k', token, created, 50);
      await sleep(120);
      expect((await store.claim(account, 'k', 'fp-2', CLAIM_TTL)).kind).toBe('claimed');
    });

    it('takes any printable key, separators included', async () => {
      const store = await harness.create();
      const account = scope();
      const key = 'a:b\\c*?[x] {"y"} ' + 'z'.repeat(230);
      await claimed(store, account, key);
      expect((await store.claim(account, `${key}!`, 'fp-1', CLAIM_TTL)).kind).toBe('claimed');
      expect((await store.claim(account, key, 'fp-1', CLAIM_TTL)).kind).toBe('in_progress');
    });
  });
}
