"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.percentileOf = percentileOf;
exports.summarize = summarize;
exports.timeSequential = timeSequential;
/** Nearest-rank percentile of a small sample (p95 of 10 samples is the largest). */
function percentileOf(samples, p) {
    if (samples.length === 0)
        return Number.NaN;
    const sorted = [...samples].sort((a, b) => a - b);
    return sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)];
}
function summarize(samples) {
    return {
        runs: samples.length,
        p50: percentileOf(samples, 50),
        p95: percentileOf(samples, 95),
        min: Math.min(...samples),
        max: Math.max(...samples),
    };
}
/** Runs `once` `warmup` times (discarded), then `runs` times, one after the other; returns ms each. */
async function timeSequential(warmup, runs, once) {
    for (let i = 0; i < warmup; i++)
        await once();
    const samples = [];
    for (let i = 0; i < runs; i++) {
        const started = performance.now();
        await once();
        samples.push(performance.now() - started);
    }
    return samples;
}
//# sourceMappingURL=analytics-stats.js.map