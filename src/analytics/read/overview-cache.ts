import { LRUCache } from 'lru-cache';
import type { OverviewRow } from './analytics.sql';

export interface OverviewCacheOptions {
  /** OVERVIEW_CACHE_TTL_MS: the longest a copy is trusted without a word from the bus (0: no cache). */
  ttlMs: number;
  /** Rows kept at most, summed over the copies (an hourly 30-day overview is ~2,000 rows). */
  maxRows: number;
  /** False while copies cannot be trusted (the bus that drops them is disconnected). */
  usable?: () => boolean;
  now?: () => number;
}

interface Entry {
  accountId: string;
  /** The whole hours the copy covers, [fromMs, toMs). */
  fromMs: number;
  toMs: number;
  rows: readonly OverviewRow[];
  expiresAtMs: number;
  /** An edge's copy: the instant of its side that moves with the range (analytics.queries.ts). */
  moving?: number;
}

interface Drop {
  seq: number;
  accountId: string;
  hours: readonly number[];
}

/** Drops remembered for fills under way; a fill that started before the oldest is refused. */
const DROPS_KEPT = 1000;

/**
 * This instance's copies of the whole-hours part of overviews (analytics.sql.ts,
 * `overviewStatements().wholeHours`), keyed by account, trunk filter, granularity and whole hours,
 * and of their partial edge hours once past (each edge's rows of the edges statement, covering its
 * one hour, with the instant it was read up to: analytics.queries.ts, `planEdge`). A copy is dropped when the call-record writer (on any instance, through the bus:
 * overview-invalidations.ts) stored rows, cancel rows included, in one of its hours, before that
 * write's requests are answered; so an acknowledged record is counted by the next overview on
 * every instance. Live ingestion writes the current hour, which an overview up to now reads from
 * the raw rows of its edge: its copies stay.
 *
 * Fills race drops: a read that started before a drop may return the rows from before the write,
 * so a fill carries the sequence number taken before its read (ticket) and is refused when a drop
 * since then touched its account and hours.
 */
export class OverviewCache {
  private readonly entries: LRUCache<string, Entry>;
  private readonly byAccount = new Map<string, Set<string>>();
  private readonly drops: Drop[] = [];
  private seq = 0;
  /** Tickets at or below this are refused (a clear, or drops no longer remembered). */
  private floor = 0;
  private readonly now: () => number;
  private readonly usable: () => boolean;

  constructor(private readonly options: OverviewCacheOptions) {
    this.entries = new LRUCache<string, Entry>({
      max: 10_000,
      maxSize: Math.max(1, options.maxRows),
      sizeCalculation: (entry) => Math.max(1, entry.rows.length),
      dispose: (entry, key) => this.unindex(entry.accountId, key),
    });
    this.now = options.now ?? Date.now;
    this.usable = options.usable ?? (() => true);
  }

  get enabled(): boolean {
    return this.options.ttlMs > 0;
  }

  get(key: string): readonly OverviewRow[] | undefined {
    return this.entry(key)?.rows;
  }

  /** A copy's rows with the `moving` instant it was kept with. */
  entry(key: string): { rows: readonly OverviewRow[]; moving?: number } | undefined {
    if (!this.enabled || !this.usable()) return undefined;
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.expiresAtMs > this.now()) return entry;
    this.entries.delete(key);
    return undefined;
  }

  /** Taken before reading the whole hours, and handed back to set(). */
  ticket(): number {
    return this.seq;
  }

  /** Keeps what a read that started at `ticket` found, unless a drop since touched its account and hours. */
  set(
    key: string,
    accountId: string,
    fromMs: number,
    toMs: number,
    rows: readonly OverviewRow[],
    ticket: number,
    moving?: number,
  ): void {
    if (!this.enabled || !this.usable() || ticket < this.floor) return;
    for (const drop of this.drops)
      if (drop.seq > ticket && drop.accountId === accountId && drop.hours.some((h) => h >= fromMs && h < toMs)) return;
    this.entries.set(key, { accountId, fromMs, toMs, rows, expiresAtMs: this.now() + this.options.ttlMs, moving });
    let keys = this.byAccount.get(accountId);
    if (!keys) this.byAccount.set(accountId, (keys = new Set()));
    keys.add(key);
  }

  /** Drops the account's copies that cover any of `hours` (each an hour's first millisecond). */
  drop(accountId: string, hours: readonly number[]): void {
    this.seq += 1;
    this.drops.push({ seq: this.seq, accountId, hours });
    if (this.drops.length > DROPS_KEPT) this.floor = this.drops.shift()!.seq;
    for (const key of [...(this.byAccount.get(accountId) ?? [])]) {
      const entry = this.entries.peek(key);
      if (entry && hours.some((h) => h >= entry.fromMs && h < entry.toMs)) this.entries.delete(key);
    }
  }

  /** When drops may have been lost (the bus reconnected). */
  clear(): void {
    this.seq += 1;
    this.floor = this.seq;
    this.drops.length = 0;
    this.entries.clear();
  }

  get size(): number {
    return this.entries.size;
  }

  private unindex(accountId: string, key: string): void {
    const keys = this.byAccount.get(accountId);
    keys?.delete(key);
    if (keys?.size === 0) this.byAccount.delete(accountId);
  }
}
