import { Agent, request } from 'undici';
import { encodeCursor, filterFingerprint } from '../../src/calls/read/call-cursor';
import type { ListCallsQueryDto } from '../../src/calls/read/call.dto';
import type { Headline } from './analytics-messages';
import { timeSequential } from './analytics-timing';

/** One keep-alive HTTPS connection, requests one after another, certificate verified. */
export class ApiClient {
  private readonly agent: Agent;

  constructor(
    private readonly origin: string,
    ca: string,
    private readonly key: string,
  ) {
    this.agent = new Agent({
      connect: { ca },
      connections: 1,
      keepAliveTimeout: 600_000,
      keepAliveMaxTimeout: 600_000,
      headersTimeout: 120_000,
      bodyTimeout: 120_000,
    });
  }

  async get<T>(path: string): Promise<T> {
    const response = await request(`${this.origin}${path}`, {
      dispatcher: this.agent,
      headers: { authorization: `Bearer ${this.key}` },
    });
    const text = await response.body.text();
    if (response.statusCode !== 200) throw new Error(`GET ${path}: HTTP ${response.statusCode} ${text.slice(0, 300)}`);
    return JSON.parse(text) as T;
  }

  /** Idempotent. */
  close(): Promise<void> {
    this.closed ??= this.agent.close();
    return this.closed;
  }

  private closed: Promise<void> | null = null;
}

interface Overview {
  summary: { total_calls: number; connected_calls: number };
  performance: { p95_latency_ms: number; p99_latency_ms: number };
  by_trunk: unknown[];
  timeseries: unknown[];
}

export function overviewPath(start: Date, end: Date, hourly: boolean): string {
  const query = new URLSearchParams({
    start_date: start.toISOString(),
    end_date: end.toISOString(),
    granularity: hourly ? 'hourly' : 'daily',
  });
  return `/v1/analytics/overview?${query}`;
}

export async function timeOverview(
  api: ApiClient,
  path: string | (() => string),
  warmup: number,
  runs: number,
): Promise<{ samplesMs: number[]; headline: Headline }> {
  let last: Overview | null = null;
  const samplesMs = await timeSequential(warmup, runs, async () => {
    last = await api.get<Overview>(typeof path === 'string' ? path : path());
  });
  const o = last! as Overview;
  return {
    samplesMs,
    headline: {
      totalCalls: o.summary.total_calls,
      connectedCalls: o.summary.connected_calls,
      p95: o.performance.p95_latency_ms,
      p99: o.performance.p99_latency_ms,
      trunks: o.by_trunk.length,
      buckets: o.timeseries.length,
    },
  };
}

interface Concurrency {
  peak_concurrent_calls: number;
  timeseries: unknown[];
}

/** The whole range of GET /v1/analytics/concurrency for the account or one trunk, and what it answered. */
export async function timeConcurrency(
  api: ApiClient,
  range: { start: Date; end: Date; hourly: boolean; trunkId?: string },
  warmup: number,
  runs: number,
): Promise<{ samplesMs: number[]; peak: number; buckets: number }> {
  const query = new URLSearchParams({
    start_date: range.start.toISOString(),
    end_date: range.end.toISOString(),
    granularity: range.hourly ? 'hourly' : 'daily',
    ...(range.trunkId ? { trunk_id: range.trunkId } : {}),
  });
  let last: Concurrency | null = null;
  const samplesMs = await timeSequential(warmup, runs, async () => {
    last = await api.get<Concurrency>(`/v1/analytics/concurrency?${query}`);
  });
  const answer = last! as Concurrency;
  return { samplesMs, peak: answer.peak_concurrent_calls, buckets: answer.timeseries.length };
}

interface CallPage {
  calls: { id: string; start_time: string }[];
  pagination: { next_cursor: string | null; total: number };
}

export interface PageCosts {
  pageSize: number;
  pages: number;
  total: number;
  /** Each page's time during the walk from page 1 to page `walkMs.length`, following next_cursor. */
  walkMs: number[];
  /** How page `pages`'s cursor was had: by the walk, or (past the walk) from the last row of the offset page before it. */
  cursorFrom: 'walk' | 'offset';
  /** Re-measured afterwards, `runs` times each: page 1, page `pages` by its cursor, the same rows by offset. */
  page1Ms: number[];
  cursorPageMs: number[];
  offsetPageMs: number[];
  /** The cursor page and the offset page start with the same call. */
  sameRows: boolean;
  /** Why the offset page could not be read (then offsetPageMs is empty). */
  offsetFailed?: string;
}

/**
 * Walks up to `walkPages` pages (at most `pages - 1`) by next_cursor, timing each. Page `pages`'s cursor comes from the walk
 * when it gets that far, otherwise from the last row of the page before it read by offset: the
 * same cursor next_cursor would carry (encodeCursor of that row), so a short walk still measures
 * the deep page.
 */
export async function measurePages(
  api: ApiClient,
  sizes: { pageSize: number; pages: number; walkPages: number },
  runs: number,
): Promise<PageCosts> {
  const { pageSize, pages } = sizes;
  const first = `/v1/calls?limit=${pageSize}`;
  const walkMs: number[] = [];
  let cursor: string | null = null;
  // The walk stops at page `pages - 1`: its next_cursor is page `pages`'s cursor.
  const walkTo = Math.min(pages - 1, sizes.walkPages);
  for (let n = 1; n <= walkTo; n++) {
    if (n > 1 && cursor === null) throw new Error(`GET /v1/calls: no next_cursor after page ${n - 1}`);
    const started = performance.now();
    const page: CallPage = await api.get<CallPage>(n === 1 ? first : `${first}&cursor=${encodeURIComponent(cursor!)}`);
    walkMs.push(performance.now() - started);
    cursor = page.pagination.next_cursor;
  }
  if (walkTo < pages - 1) {
    const before = await api.get<CallPage>(`${first}&offset=${(pages - 2) * pageSize}`);
    const last = before.calls[before.calls.length - 1];
    cursor = encodeCursor(
      { startMs: Date.parse(last.start_time), callId: last.id },
      filterFingerprint({} as ListCallsQueryDto),
    );
  }
  const cursorPath = pages === 1 ? first : `${first}&cursor=${encodeURIComponent(cursor!)}`;
  const offsetPath = `${first}&offset=${(pages - 1) * pageSize}`;
  const cursorPage = await api.get<CallPage>(cursorPath);
  // A deep offset page can outlast the engine's statement timeout on a big table: that is a
  // finding to print, not a reason to lose the run's other figures.
  const offsetPage = await api.get<CallPage>(offsetPath).catch((error: Error) => error);
  const offsetFailed = offsetPage instanceof Error ? offsetPage.message.slice(0, 160) : undefined;
  return {
    pageSize,
    pages,
    total: cursorPage.pagination.total,
    walkMs,
    cursorFrom: walkTo < pages - 1 ? 'offset' : 'walk',
    page1Ms: await timeSequential(1, runs, () => api.get(first)),
    cursorPageMs: await timeSequential(1, runs, () => api.get(cursorPath)),
    offsetPageMs: offsetPage instanceof Error ? [] : await timeSequential(1, runs, () => api.get(offsetPath)),
    offsetFailed,
    sameRows:
      !(offsetPage instanceof Error) &&
      cursorPage.calls.length > 0 &&
      cursorPage.calls.map((c) => c.id).join() === offsetPage.calls.map((c) => c.id).join(),
  };
}
