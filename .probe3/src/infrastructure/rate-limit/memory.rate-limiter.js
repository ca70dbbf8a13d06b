"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.MemoryRateLimiter = void 0;
const rate_limit_window_1 = require("./rate-limit.window");
const PRUNE_EVERY_MS = 60_000;
/**
 * The Redis limiter's semantics in one process: epoch-aligned windows, one counter per bucket
 * and window (`<bucket>:<windowIndex>`), refused requests not counted. Counters of ended windows
 * are swept at most once a minute, so memory follows the buckets active in current windows.
 */
class MemoryRateLimiter {
    now;
    counters = new Map();
    nextPruneAtMs = 0;
    constructor(now = Date.now) {
        this.now = now;
    }
    async consume(bucket, limit, windowSeconds) {
        (0, rate_limit_window_1.assertLimitArgs)(limit, windowSeconds);
        const nowMs = this.now();
        this.prune(nowMs);
        const index = Math.floor(Math.floor(nowMs / 1000) / windowSeconds);
        const resetAtSeconds = (index + 1) * windowSeconds;
        const key = `${bucket}:${index}`;
        const counter = this.counters.get(key) ?? { count: 0, resetAtMs: resetAtSeconds * 1000 };
        if (counter.count >= limit)
            return (0, rate_limit_window_1.decision)(false, limit, counter.count, resetAtSeconds);
        counter.count += 1;
        this.counters.set(key, counter);
        return (0, rate_limit_window_1.decision)(true, limit, counter.count, resetAtSeconds);
    }
    async close() {
        this.counters.clear();
    }
    /** Live counters (for tests of the pruning). */
    get size() {
        return this.counters.size;
    }
    prune(nowMs) {
        if (nowMs < this.nextPruneAtMs)
            return;
        this.nextPruneAtMs = nowMs + PRUNE_EVERY_MS;
        for (const [key, counter] of this.counters) {
            if (counter.resetAtMs <= nowMs)
                this.counters.delete(key);
        }
    }
}
exports.MemoryRateLimiter = MemoryRateLimiter;
//# sourceMappingURL=memory.rate-limiter.js.map