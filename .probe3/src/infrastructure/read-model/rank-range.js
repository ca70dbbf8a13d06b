"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.rankRange = rankRange;
/**
 * The paging rule both read-model adapters share: `count` items from rank `offset`.
 * Returns inclusive ZRANGE ranks, or null when the range is empty (count 0).
 */
function rankRange(offset, count) {
    if (!Number.isSafeInteger(offset) || offset < 0) {
        throw new RangeError(`offset must be a non-negative integer, got ${offset}`);
    }
    if (!Number.isSafeInteger(count) || count < 0) {
        throw new RangeError(`count must be a non-negative integer, got ${count}`);
    }
    return count === 0 ? null : [offset, offset + count - 1];
}
//# sourceMappingURL=rank-range.js.map