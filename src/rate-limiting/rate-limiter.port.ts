/**
 * Fixed-window limiter: a window of `windowSeconds` aligned to the epoch; at most `limit`
 * consumptions per bucket and window, exactly, under any concurrency (Redis: one Lua script,
 * clock of the Redis server). Adapters run test/contract/rate-limiter.contract.ts.
 */
export interface RateLimitDecision {
  allowed: boolean;
  limit: number;
  /** Left in the current window after this request (0 when refused). */
  remaining: number;
  /** Unix seconds at which the current window ends. */
  resetAtSeconds: number;
}

export interface RateLimiter {
  consume(bucket: string, limit: number, windowSeconds: number): Promise<RateLimitDecision>;
  close(): Promise<void>;
}

export const RATE_LIMITER = Symbol('RateLimiter');

/** Usage counters per API key; not event-sourced (one write per request). */
export interface KeyUsage {
  lastUsedAt: Date | null;
  requestCount: number;
  errorCount: number;
}

export interface KeyUsageStore {
  record(keyId: string, at: Date, isError: boolean): Promise<void>;
  get(keyIds: string[]): Promise<Map<string, KeyUsage>>;
  close(): Promise<void>;
}

export const KEY_USAGE_STORE = Symbol('KeyUsageStore');
