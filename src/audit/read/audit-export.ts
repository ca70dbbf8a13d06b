import type { StoredEvent } from '../../infrastructure/event-store/event-store.port';
import { auditEventOf } from '../verify/audit-record';
import {
  CSV_HEADER_ROW,
  EXPORT_FORMAT,
  EXPORT_VERSION,
  type ExportRecord,
  headRecord,
  toCsvRow,
  toNdjson,
} from '../verify/export-format';
import { MerkleHeads } from '../verify/merkle-heads';
import type { AuditLogReader } from '../../eventsourcing/audit-log.port';

/**
 * Events a page: small enough that a page's objects die young (they live while the socket drains
 * the page before), so the V8 heap does not grow with the export; large enough to keep queries few.
 */
const PAGE = 250;

export interface ExportWindow {
  accountId: string;
  from: Date | null;
  to: Date | null;
  format: 'ndjson' | 'csv';
  exportedAt: Date;
}

/**
 * The export, a page of records per chunk, pulled a page at a time: memory holds one page and the stream
 * heads, whatever the size of the log. `from` and `to` cut the global order, not single events:
 * the window starts at the first event recorded at or after `from` and ends before the first one
 * recorded after `to`, so every stream in it continues without a gap from its `head` record.
 */
export async function* exportLines(reader: AuditLogReader, w: ExportWindow): AsyncGenerator<string> {
  const encode = w.format === 'csv' ? toCsvRow : toNdjson;
  if (w.format === 'csv') yield CSV_HEADER_ROW;
  const heads = new MerkleHeads();
  const pages = accountEvents(reader, w.accountId);
  let before = 0;
  let first: StoredEvent[] = [];
  // Pulled by hand: breaking out of a for-await would close the generator the window goes on with.
  for (let next = await pages.next(); !next.done; next = await pages.next()) {
    const page = next.value;
    const start = w.from ? page.findIndex((e) => e.recordedAt >= (w.from as Date)) : 0;
    const skipped = start < 0 ? page : page.slice(0, start);
    for (const e of skipped) heads.set({ streamId: e.streamId, revision: e.revision, hash: e.hash });
    before += skipped.length;
    if (start >= 0) {
      first = page.slice(start);
      break;
    }
  }
  yield encode(headerOf(w, before));
  const base = w.from ? heads.all() : [];
  for (let i = 0; i < base.length; i += PAGE)
    yield base
      .slice(i, i + PAGE)
      .map((h) => encode(headRecord(h)))
      .join('');
  let events = 0;
  let last: string | null = null;
  for (let page = first; page.length > 0; page = (await pages.next()).value ?? []) {
    const end = w.to ? page.findIndex((e) => e.recordedAt > (w.to as Date)) : -1;
    const records: string[] = [];
    for (const e of end < 0 ? page : page.slice(0, end)) {
      heads.set({ streamId: e.streamId, revision: e.revision, hash: e.hash });
      const event = auditEventOf(e);
      last = event.position;
      events += 1;
      records.push(encode({ record: 'event', ...event }));
    }
    // One chunk a page: a write per record would cost a TLS record per line.
    if (records.length > 0) yield records.join('');
    if (end >= 0) break;
  }
  yield encode({ record: 'end', events, last_position: last, root: heads.root(), streams: heads.size });
}

async function* accountEvents(reader: AuditLogReader, accountId: string): AsyncGenerator<StoredEvent[]> {
  let after = null;
  for (;;) {
    const page = await reader.read({ accountId, after, limit: PAGE, filter: {} });
    if (page.length === 0) return;
    yield page;
    if (page.length < PAGE) return;
    after = page[page.length - 1].position;
  }
}

const headerOf = (w: ExportWindow, eventsBefore: number): ExportRecord => ({
  record: 'header',
  format: EXPORT_FORMAT,
  version: EXPORT_VERSION,
  account_id: w.accountId,
  from: w.from?.toISOString() ?? null,
  to: w.to?.toISOString() ?? null,
  exported_at: w.exportedAt.toISOString(),
  hash: 'sha256(rfc8785(record with sealed secrets))',
  events_before: eventsBefore,
});
