import { ApiClient, expectError } from '../support/http-client';
import { provisionAccountDirect, startTestApp, TestApp } from '../support/test-app';
import { trunkBody } from '../support/trunk-requests';

const MINUTE = 60_000;
const DAY = 86_400_000;

interface FeedItem {
  id: string;
  version: number;
  status: string;
  start_time: string;
}

describe('GET /v1/calls/changes: the sync feed in storage order', () => {
  let app: TestApp;
  let client: ApiClient;
  let other: ApiClient;
  let trunkId: string;
  const now = Date.now();

  const record = (id: string, startMs: number, status = 'connected') => ({
    id,
    trunk_id: trunkId,
    from: '+14155550100',
    to: '+14155550199',
    status,
    start_time: new Date(startMs).toISOString(),
    duration_seconds: 30,
  });
  const ingest = async (records: object[]) => {
    const response = await client.call('POST', '/v1/ingest/calls', {
      rawBody: records.map((r) => JSON.stringify(r)).join('\n'),
      headers: { 'content-type': 'application/x-ndjson' },
    });
    expect(response.body).toEqual({ accepted: records.length, rejected: [] });
  };
  /** Every page from the cursor to the end; the items and the cursor to resume from. */
  const walk = async (from: string | null, limit: number, as = client) => {
    const items: FeedItem[] = [];
    let cursor = from;
    for (;;) {
      const query = `limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`;
      const page = await as.get(`/v1/calls/changes?${query}`);
      expect(page.status).toBe(200);
      items.push(...page.body.calls);
      cursor = page.body.pagination.next_cursor;
      if (!page.body.pagination.has_more) return { items, cursor: cursor! };
    }
  };
  const keys = (items: FeedItem[]) => items.map((item) => `${item.id}@${item.version}`);

  beforeAll(async () => {
    app = await startTestApp();
    client = (await provisionAccountDirect(app, ['full'])).client;
    other = (await provisionAccountDirect(app, ['full'], 'Other')).client;
    trunkId = (await client.post('/v1/trunks', trunkBody())).body.id;
  });
  afterAll(() => app.stop());

  let cursor: string;
  const firstIds = Array.from({ length: 30 }, (_, i) => `call_feedA${i}`);

  it('lists the records in the order they were stored, each once, to a cursor that resumes', async () => {
    // Three requests; within one, starts out of order: the feed follows storage, not start_time.
    for (let r = 0; r < 3; r++)
      await ingest(firstIds.slice(r * 10, r * 10 + 10).map((id, i) => record(id, now - (i * 7 + r) * MINUTE)));
    const { items, cursor: end } = await walk(null, 7);
    expect(new Set(items.map((item) => item.id))).toEqual(new Set(firstIds));
    expect(items.length).toBe(30);
    const versions = items.map((item) => item.version);
    expect(versions).toEqual([...versions].sort((a, b) => a - b));
    // Request order is storage order: every record of a request after those of the one before.
    const requestOf = (item: FeedItem) => Math.floor(firstIds.indexOf(item.id) / 10);
    expect(items.map(requestOf)).toEqual([...items.map(requestOf)].sort());
    const again = await client.get(`/v1/calls/changes?cursor=${end}`);
    expect(again.body.calls).toEqual([]);
    expect(again.body.pagination).toEqual({ limit: 100, has_more: false, next_cursor: end });
    cursor = end;
  });

  it('shows records with old start times that arrive after the cursor was taken', async () => {
    const late = Array.from({ length: 10 }, (_, i) => record(`call_feedLate${i}`, now - 20 * DAY - i * MINUTE));
    await ingest(late.slice(0, 4));
    await ingest(late.slice(4));
    const { items, cursor: end } = await walk(cursor, 3);
    expect(items.map((item) => item.id)).toEqual(late.map((r) => r.id));
    expect(items[0].start_time).toBe(late[0].start_time);
    cursor = end;
  });

  it('walks the same feed with limit=1 as in one page, and resumes from any cursor with the rest', async () => {
    const full = await client.get('/v1/calls/changes?limit=1000');
    expect(full.body.pagination.has_more).toBe(false);
    const one = await walk(null, 1);
    expect(keys(one.items)).toEqual(keys(full.body.calls));
    expect(one.items).toEqual(full.body.calls);
    expect(one.cursor).toBe(full.body.pagination.next_cursor);
    const head = await client.get('/v1/calls/changes?limit=17');
    const rest = await walk(head.body.pagination.next_cursor, 5);
    expect(keys([...head.body.calls, ...rest.items])).toEqual(keys(full.body.calls));
  });

  it('sends a re-sent record again with its new version, and nothing else', async () => {
    const before = (await client.get('/v1/calls/changes?limit=1000')).body.calls as FeedItem[];
    const resent = [firstIds[3], firstIds[17], firstIds[25]];
    await ingest(resent.map((id) => record(id, now - 3 * DAY, 'failed')));
    const { items } = await walk(cursor, 2);
    expect(items.map((item) => item.id)).toEqual(resent);
    for (const item of items) {
      expect(item.status).toBe('failed');
      expect(item.version).toBeGreaterThan(Math.max(...before.map((b) => b.version)));
    }
  });

  it("shows nothing of another account's records, and answers bad cursors and limits with 400", async () => {
    const empty = await walk(null, 50, other);
    expect(empty.items).toEqual([]);
    for (const query of [
      'cursor=nonsense',
      'cursor=W10',
      `cursor=${Buffer.from('["feed",-1,"x"]').toString('base64url')}`,
    ]) {
      const bad = await client.get(`/v1/calls/changes?${query}`);
      expectError(bad, 400, 'invalid_params');
      expect(bad.body.error.param).toBe('cursor');
    }
    for (const limit of ['0', '1001', 'x']) {
      const bad = await client.get(`/v1/calls/changes?limit=${limit}`);
      expect(bad.status).toBe(400);
      expect(bad.body.error.param).toBe('limit');
    }
  });
});
