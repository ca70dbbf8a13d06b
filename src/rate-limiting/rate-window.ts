import type { RateLimitDecision } from './rate-limiter.port';

/*
 * Fixed windows aligned to the Unix epoch: every instance (and Redis's script, which mirrors this
 * on the server's clock) puts a moment in the same window, and a window's counter is one key.
 */

/** The contract's limit is per minute. */
export const WINDOW_SECONDS = 60;

export interface Window {
  /** Which window since the epoch: part of the counter's key. */
  index: number;
  /** Unix seconds at which it ends (X-RateLimit-Reset). */
  resetAtSeconds: number;
}

export function windowAt(nowMs: number, windowSeconds: number): Window {
  const index = Math.floor(Math.floor(nowMs / 1000) / windowSeconds);
  return { index, resetAtSeconds: (index + 1) * windowSeconds };
}

/** Retry-After for a refused request: whole seconds until the window ends, at least 1. */
export function retryAfterSeconds(decision: RateLimitDecision, nowMs: number): number {
  return Math.max(1, decision.resetAtSeconds - Math.floor(nowMs / 1000));
}

export function assertLimitArgs(limit: number, windowSeconds: number): void {
  if (!Number.isSafeInteger(limit) || limit < 0) {
    throw new RangeError(`limit must be a non-negative integer, got ${limit}`);
  }
  if (!Number.isSafeInteger(windowSeconds) || windowSeconds <= 0) {
    throw new RangeError(`windowSeconds must be a positive integer, got ${windowSeconds}`);
  }
}

/** `count` is the number of allowed requests in the window, this one included when allowed. */
export function decision(allowed: boolean, limit: number, count: number, resetAtSeconds: number): RateLimitDecision {
  return { allowed, limit, remaining: allowed ? Math.max(0, limit - count) : 0, resetAtSeconds };
}
