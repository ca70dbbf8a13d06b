import { SETTLE_DEADLINE_MS } from '../support/deadlines';
import { verifyExport, type ExportReport } from '../../src/audit/verify/export-verifier';
import type { ApiClient } from '../support/http-client';

/** Every audit event the query selects, page by page through next_cursor. */
export async function allAuditEvents(client: ApiClient, query = '', limit = 100): Promise<any[]> {
  const events: any[] = [];
  let cursor: string | null = null;
  do {
    const page: string[] = [`limit=${limit}`, ...(query ? [query] : []), ...(cursor ? [`cursor=${cursor}`] : [])];
    const response = await client.get(`/v1/audit-events?${page.join('&')}`);
    if (response.status !== 200) throw new Error(`audit events: ${response.status} ${response.text}`);
    events.push(...response.body.events);
    expect(response.body.pagination.has_more).toBe(response.body.pagination.next_cursor !== null);
    cursor = response.body.pagination.next_cursor;
  } while (cursor);
  return events;
}

/** The export as the client received it (undici buffers the streamed body). */
export async function exportOf(client: ApiClient, query = '', accept = 'application/x-ndjson') {
  const response = await client.get(`/v1/audit-events/export${query ? `?${query}` : ''}`, {
    headers: { accept },
  });
  if (response.status !== 200) throw new Error(`export: ${response.status} ${response.text}`);
  return response;
}

/** What `npm run audit:verify` says of a file with this content. */
export function verifyText(text: string): Promise<ExportReport> {
  return verifyExport(
    (async function* () {
      yield* text.split(/\r?\n/);
    })(),
  );
}

export async function waitFor<T>(
  read: () => Promise<T>,
  done: (value: T) => boolean,
  timeoutMs = SETTLE_DEADLINE_MS,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting: ${JSON.stringify(value).slice(0, 300)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
