/** The overview's whole-hours copies (OVERVIEW_CACHE_TTL_MS, docs/analytics.md "The overview"). */
export interface OverviewCacheSettings {
  /** How long an instance trusts a copy without hearing of a write to its hours; 0 = no copies. */
  ttlMs: number;
}

export const OVERVIEW_CACHE_SETTINGS = Symbol('OverviewCacheSettings');

/** Rows kept at most over every copy of an instance (a 30-day hourly overview is ~2,000 rows). */
export const OVERVIEW_CACHE_MAX_ROWS = 50_000;
