import type { Lease } from './redis.rate-limiter';
import { assertLimitArgs, decision } from './rate-window';
import type { RateLimitDecision, RateLimiter } from './rate-limiter.port';

/** Where leases come from: the shared counter of each bucket and window (RedisRateLimiter.lease). */
export interface SlotSource {
  lease(bucket: string, limit: number, windowSeconds: number, want: number): Promise<Lease>;
}

export interface LeaseOptions {
  /**
   * The largest lease, as a fraction of the limit (RATE_LIMIT_LEASE_PERCENT / 100); never less
   * than one slot. It bounds what an instance may hold unused (see docs/rate-limiting.md).
   */
  maxFraction: number;
  now?: () => number;
}

/** A lease used up faster than this grows (doubles); one that lasts 4× longer shrinks (halves). */
const LEASE_HORIZON_MS = 50;
const PRUNE_EVERY_MS = 60_000;

interface BucketLease {
  limit: number;
  resetAtSeconds: number;
  /** The window's shared count right after this lease was granted (every instance's slots in it). */
  count: number;
  /** Slots of the lease not handed out yet. */
  left: number;
  /** What the next lease asks for. */
  size: number;
  grantedAtMs: number;
  /** The shared count reached the limit: refused here until the window ends, no round trip. */
  exhausted: boolean;
}

/**
 * The shared fixed-window limit, counted in process: each instance leases slots of a bucket's
 * window from the shared counter (one script call) and hands them out locally, so most requests
 * make no round trip. Slots are counted in the shared counter before they are handed out, so the
 * instances together never admit more than the limit in a window (no overshoot). The cost is on
 * the other side: slots an instance leased and did not use before the window ended are lost to the
 * others, at most one lease per instance (`maxFraction` of the limit). A bucket used slowly leases
 * one slot at a time, which is the exact per-request count.
 */
export class LeasedRateLimiter implements RateLimiter {
  private readonly leases = new Map<string, BucketLease>();
  private readonly pending = new Map<string, Promise<void>>();
  private readonly now: () => number;
  private nextPruneAtMs = 0;

  constructor(
    private readonly source: SlotSource,
    private readonly options: LeaseOptions,
  ) {
    this.now = options.now ?? Date.now;
  }

  async consume(bucket: string, limit: number, windowSeconds: number): Promise<RateLimitDecision> {
    assertLimitArgs(limit, windowSeconds);
    const key = `${windowSeconds}|${bucket}`;
    for (;;) {
      const lease = this.current(key, limit);
      if (lease && lease.left > 0) {
        lease.left -= 1;
        return decision(true, limit, lease.count - lease.left, lease.resetAtSeconds);
      }
      if (lease?.exhausted) return decision(false, limit, limit, lease.resetAtSeconds);
      // One lease in flight per bucket: the others wait for it and then take from it.
      let refill = this.pending.get(key);
      if (!refill) {
        refill = this.refill(key, bucket, limit, windowSeconds).finally(() => this.pending.delete(key));
        this.pending.set(key, refill);
      }
      await refill;
    }
  }

  /** Slots held unused in this process, per bucket (for tests and the docs' bound). */
  unused(bucket: string, windowSeconds: number): number {
    return this.leases.get(`${windowSeconds}|${bucket}`)?.left ?? 0;
  }

  async close(): Promise<void> {
    this.leases.clear();
  }

  /** The bucket's lease while it is for this window and limit; a changed limit starts anew. */
  private current(key: string, limit: number): BucketLease | undefined {
    const lease = this.leases.get(key);
    if (!lease || lease.limit !== limit || lease.resetAtSeconds * 1000 <= this.now()) return undefined;
    return lease;
  }

  private async refill(key: string, bucket: string, limit: number, windowSeconds: number): Promise<void> {
    const nowMs = this.now();
    this.prune(nowMs);
    const size = this.nextSize(this.leases.get(key), limit, nowMs);
    const { granted, count, resetAtSeconds } = await this.source.lease(bucket, limit, windowSeconds, size);
    this.leases.set(key, {
      limit,
      resetAtSeconds,
      count,
      left: granted,
      size,
      grantedAtMs: nowMs,
      exhausted: granted === 0,
    });
  }

  private nextSize(previous: BucketLease | undefined, limit: number, nowMs: number): number {
    const cap = Math.max(1, Math.floor(limit * this.options.maxFraction));
    if (!previous) return 1;
    const lasted = nowMs - previous.grantedAtMs;
    if (lasted < LEASE_HORIZON_MS) return Math.min(cap, previous.size * 2);
    if (lasted > 4 * LEASE_HORIZON_MS) return Math.max(1, Math.min(cap, Math.floor(previous.size / 2)));
    return Math.min(cap, previous.size);
  }

  private prune(nowMs: number): void {
    if (nowMs < this.nextPruneAtMs) return;
    this.nextPruneAtMs = nowMs + PRUNE_EVERY_MS;
    for (const [key, lease] of this.leases) if (lease.resetAtSeconds * 1000 <= nowMs) this.leases.delete(key);
  }
}
