import { mkdtempSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClickHouse } from '../../src/infrastructure/clickhouse/clickhouse.factory';
import type { ClickHouseExecutor } from '../../src/infrastructure/clickhouse/clickhouse.port';
import { MemoryReadModelStore } from '../../src/infrastructure/read-model/memory.read-model-store';
import { RejectionIngestion } from '../../src/rejections/ingestion/rejection-ingestion.service';
import { headOfRejections, rejectionsAfter } from '../../src/rejections/read/rejection-changes.queries';

/**
 * The rejections' stored order (the live call stream's, docs/analytics.md "Calls as they happen")
 * against the embedded engine with the application's migrations: every INSERT is stamped above
 * the published horizon, and a reader from any position sees each stored rejection once.
 */
const dataDir = mkdtempSync(join(tmpdir(), 'trunkline-rejection-feed-'));
let clickhouse: ClickHouseExecutor;
let ingestion: RejectionIngestion;

beforeAll(async () => {
  clickhouse = await createClickHouse({ url: null, dataDir });
  ingestion = new RejectionIngestion(new MemoryReadModelStore(), clickhouse);
});

afterAll(async () => {
  await clickhouse?.close();
  await rm(dataDir, { recursive: true, force: true });
});

const rejection = (id: string) => ({
  id,
  at: '2026-11-21T10:00:00.000Z',
  reason: 'auth_failed',
  sip_code: 403,
  source_address: '192.0.2.10',
});
const horizon = async () =>
  Number(
    (await clickhouse.query<{ v: string }>('SELECT toString(max(version)) AS v FROM call_feed_horizon WHERE id = 1'))[0]
      .v,
  );

describe('rejections in stored order', () => {
  it('stamps concurrent batches one after another above the published horizon, each read once from any position', async () => {
    const account = 'acct_rejection_feed';
    const start = await headOfRejections(clickhouse, account);
    // Another instance, its clock an hour ahead, published its INSERT.
    const ahead = Date.now() + 3_600_000;
    await clickhouse.insert('call_feed_horizon', [{ id: 1, version: ahead }]);
    const now = new Date();
    const batches = Array.from({ length: 5 }, (_, b) => [rejection(`rej_b${b}a`), rejection(`rej_b${b}b`)]);
    const answers = await Promise.all(batches.map((batch) => ingestion.ingest(account, batch, now)));
    expect(answers.map((a) => a.accepted)).toEqual([2, 2, 2, 2, 2]);
    const all = await rejectionsAfter(clickhouse, account, start, 100);
    expect(all.rejections.map((r) => r.id).sort()).toEqual(
      batches
        .flat()
        .map((r) => r.id)
        .sort(),
    );
    const stamps = [...new Set(all.rejections.map((r) => Date.parse(r.stored_at)))];
    // One stamp per INSERT, each above the horizon before it: the last is the published one.
    expect(stamps.length).toBe(5);
    expect(stamps.every((ms) => ms > ahead)).toBe(true);
    expect(await horizon()).toBe(Math.max(...stamps));
    // Read one at a time from each position: the same list, each once.
    const walked: string[] = [];
    for (let position = start; ;) {
      const page = await rejectionsAfter(clickhouse, account, position, 1);
      if (page.rejections.length === 0) break;
      walked.push(page.rejections[0].id);
      position = page.position;
    }
    expect(walked).toEqual(all.rejections.map((r) => r.id));
    // A new reader starts after all of them.
    expect(
      (await rejectionsAfter(clickhouse, account, await headOfRejections(clickhouse, account), 100)).rejections,
    ).toEqual([]);
  });
});
