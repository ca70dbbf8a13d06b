import { assertLimitArgs, decision, windowAt } from './rate-window';
import type { RateLimitDecision, RateLimiter } from './rate-limiter.port';

const PRUNE_EVERY_MS = 60_000;

/**
 * The Redis limiter's semantics in one process: epoch-aligned windows, one counter per bucket
 * and window (`<bucket>:<windowIndex>`), refused requests not counted. Counters of ended windows
 * are swept at most once a minute, so memory follows the buckets active in current windows.
 */
export class MemoryRateLimiter implements RateLimiter {
  private readonly counters = new Map<string, { count: number; resetAtMs: number }>();
  private nextPruneAtMs = 0;

  constructor(private readonly now: () => number = Date.now) {}

  async consume(bucket: string, limit: number, windowSeconds: number): Promise<RateLimitDecision> {
    assertLimitArgs(limit, windowSeconds);
    const nowMs = this.now();
    this.prune(nowMs);
    const { index, resetAtSeconds } = windowAt(nowMs, windowSeconds);
    const key = `${bucket}:${index}`;
    const counter = this.counters.get(key) ?? { count: 0, resetAtMs: resetAtSeconds * 1000 };
    if (counter.count >= limit) return decision(false, limit, counter.count, resetAtSeconds);
    counter.count += 1;
    this.counters.set(key, counter);
    return decision(true, limit, counter.count, resetAtSeconds);
  }

  async close(): Promise<void> {
    this.counters.clear();
  }

  /** Live counters (for tests of the pruning). */
  get size(): number {
    return this.counters.size;
  }

  private prune(nowMs: number): void {
    if (nowMs < this.nextPruneAtMs) return;
    this.nextPruneAtMs = nowMs + PRUNE_EVERY_MS;
    for (const [key, counter] of this.counters) {
      if (counter.resetAtMs <= nowMs) this.counters.delete(key);
    }
  }
}
