"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.CALL_STATUSES = void 0;
exports.codecGroup = codecGroup;
exports.latencyBin = latencyBin;
exports.CALL_STATUSES = ['connected', 'failed', 'disconnected'];
/** G711u, G711a, PCMU, PCMA count as G711; G722 and G.722 as G722; others by their upper-case name. */
function codecGroup(codec) {
    if (!codec)
        return '';
    const upper = codec.toUpperCase();
    if (['G711', 'G711U', 'G711A', 'PCMU', 'PCMA', 'G.711', 'G.711U', 'G.711A'].includes(upper))
        return 'G711';
    if (upper === 'G722' || upper === 'G.722')
        return 'G722';
    return upper;
}
/**
 * Histogram bin of a latency: exact below 256 ms, 8 significant bits above (the bin's lower
 * bound is within 0.8% of any value in it). Keeps percentiles inside the 1% the contract allows.
 */
function latencyBin(ms) {
    if (ms < 256)
        return ms;
    const shift = Math.floor(Math.log2(ms)) - 7;
    return Math.floor(ms / 2 ** shift) * 2 ** shift;
}
//# sourceMappingURL=call-record.js.map