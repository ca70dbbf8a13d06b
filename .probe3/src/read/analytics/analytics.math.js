"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.avgInt = exports.percent = exports.ratio = exports.round2 = exports.emptyTotals = void 0;
exports.addRow = addRow;
exports.percentile = percentile;
exports.codecDistribution = codecDistribution;
const emptyTotals = () => ({
    calls: 0, connected: 0, failed: 0, durationSum: 0, latencyCalls: 0, carrierSum: 0, aiSum: 0, gatewaySum: 0, totalLatencySum: 0,
    lossCalls: 0, lossSum: 0, jitterCalls: 0, jitterSum: 0, hist: new Map(), codecs: new Map(),
});
exports.emptyTotals = emptyTotals;
function addRow(into, row) {
    into.calls += Number(row.calls);
    into.connected += Number(row.connected);
    into.failed += Number(row.failed);
    into.durationSum += Number(row.duration_sum);
    into.latencyCalls += Number(row.latency_calls);
    into.carrierSum += Number(row.carrier_sum);
    into.aiSum += Number(row.ai_sum);
    into.gatewaySum += Number(row.gateway_sum);
    into.totalLatencySum += Number(row.total_latency_sum);
    into.lossCalls += Number(row.loss_calls);
    into.lossSum += Number(row.loss_sum);
    into.jitterCalls += Number(row.jitter_calls);
    into.jitterSum += Number(row.jitter_sum);
    mergeMap(into.hist, row.hist[0].map(Number), row.hist[1]);
    mergeMap(into.codecs, row.codecs[0], row.codecs[1]);
}
function mergeMap(into, keys, counts) {
    keys.forEach((key, i) => into.set(key, (into.get(key) ?? 0) + Number(counts[i])));
}
const round2 = (value) => Math.round(value * 100) / 100;
exports.round2 = round2;
const ratio = (part, whole) => (whole === 0 ? 0 : part / whole);
exports.ratio = ratio;
const percent = (part, whole) => (0, exports.round2)(100 * (0, exports.ratio)(part, whole));
exports.percent = percent;
const avgInt = (sum, count) => (count === 0 ? 0 : Math.round(sum / count));
exports.avgInt = avgInt;
/**
 * Nearest-rank percentile over the latency histogram: the smallest bin whose cumulative count
 * reaches ceil(p × n). Bins are exact below 256 ms and within 0.8% above.
 */
function percentile(hist, p) {
    const bins = [...hist.entries()].filter(([, count]) => count > 0).sort((a, b) => a[0] - b[0]);
    const n = bins.reduce((sum, [, count]) => sum + count, 0);
    if (n === 0)
        return 0;
    const rank = Math.ceil(p * n);
    let seen = 0;
    for (const [bin, count] of bins) {
        seen += count;
        if (seen >= rank)
            return bin;
    }
    return bins[bins.length - 1][0];
}
/** G711 and G722 always present; other codecs under their own name; percent of calls reporting a codec. */
function codecDistribution(codecs) {
    const total = [...codecs.values()].reduce((sum, count) => sum + Math.max(0, count), 0);
    const out = { G711: 0, G722: 0 };
    for (const [codec, count] of codecs)
        if (count > 0)
            out[codec] = (0, exports.percent)(count, total);
    return out;
}
//# sourceMappingURL=analytics.math.js.map