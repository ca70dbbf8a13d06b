import type { RateLimitDecision } from './rate-limiter.port';

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
