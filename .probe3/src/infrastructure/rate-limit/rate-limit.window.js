"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.assertLimitArgs = assertLimitArgs;
exports.decision = decision;
function assertLimitArgs(limit, windowSeconds) {
    if (!Number.isSafeInteger(limit) || limit < 0) {
        throw new RangeError(`limit must be a non-negative integer, got ${limit}`);
    }
    if (!Number.isSafeInteger(windowSeconds) || windowSeconds <= 0) {
        throw new RangeError(`windowSeconds must be a positive integer, got ${windowSeconds}`);
    }
}
/** `count` is the number of allowed requests in the window, this one included when allowed. */
function decision(allowed, limit, count, resetAtSeconds) {
    return { allowed, limit, remaining: allowed ? Math.max(0, limit - count) : 0, resetAtSeconds };
}
//# sourceMappingURL=rate-limit.window.js.map