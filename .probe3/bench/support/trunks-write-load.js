"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.measureWrites = measureWrites;
exports.sendWrites = sendWrites;
const autocannon_1 = __importDefault(require("autocannon"));
const latency_histogram_1 = require("./latency-histogram");
const fire = autocannon_1.default;
/**
 * As the harness's measure(), for writes: a discarded warm-up, then a measured run, HTTPS,
 * keep-alive, pipelining 1, one request in flight per connection (so connections = clients).
 */
async function measureWrites(target, request, settings) {
    if (settings.warmupSeconds > 0)
        await fire(optionsFor(target, request, settings.connections, { duration: settings.warmupSeconds }));
    const latencies = new latency_histogram_1.LatencyHistogram();
    const statuses = {};
    const cpuBefore = await target.cpuMicros();
    const result = await fire(optionsFor(target, request, settings.connections, { duration: settings.seconds })).on('response', (_client, status, _bytes, ms) => {
        latencies.record(ms);
        statuses[status] = (statuses[status] ?? 0) + 1;
    });
    const cpuMicros = (await target.cpuMicros()) - cpuBefore;
    const requests = result.requests.total;
    return {
        requestsPerSecond: result.requests.average,
        p50Ms: latencies.percentile(50),
        p99Ms: latencies.percentile(99),
        requests,
        statuses,
        unexpected: Object.entries(statuses).reduce((sum, [status, count]) => sum + (Number(status) === request.expectedStatus ? 0 : count), 0),
        errors: result.errors + result.timeouts,
        cpuMicrosPerRequest: requests > 0 ? cpuMicros / requests : 0,
    };
}
/** Exactly `amount` requests as fast as `connections` clients go: for setting data up. */
async function sendWrites(target, request, connections, amount) {
    const statuses = {};
    const started = process.hrtime.bigint();
    const result = await fire(optionsFor(target, request, Math.min(connections, amount), { amount })).on('response', (_client, status) => {
        statuses[status] = (statuses[status] ?? 0) + 1;
    });
    return { seconds: Number(process.hrtime.bigint() - started) / 1e9, statuses, errors: result.errors + result.timeouts };
}
function optionsFor(target, request, connections, length) {
    return {
        url: target.url,
        connections,
        pipelining: 1,
        headers: { ...target.headers, 'content-type': 'application/json' },
        tlsOptions: { ca: target.ca },
        ...length,
        requests: [{ setupRequest: (base) => ({ ...base, method: request.method, ...request.next() }) }],
    };
}
//# sourceMappingURL=trunks-write-load.js.map