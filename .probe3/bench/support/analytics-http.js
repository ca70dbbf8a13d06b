"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.ApiClient = void 0;
exports.overviewPath = overviewPath;
exports.timeOverview = timeOverview;
exports.measurePages = measurePages;
const undici_1 = require("undici");
const call_cursor_1 = require("../../src/read/calls/call-cursor");
const analytics_stats_1 = require("./analytics-stats");
/** One keep-alive HTTPS connection, requests one after another, certificate verified. */
class ApiClient {
    origin;
    key;
    agent;
    constructor(origin, ca, key) {
        this.origin = origin;
        this.key = key;
        this.agent = new undici_1.Agent({ connect: { ca }, connections: 1, keepAliveTimeout: 600_000, keepAliveMaxTimeout: 600_000, headersTimeout: 120_000, bodyTimeout: 120_000 });
    }
    async get(path) {
        const response = await (0, undici_1.request)(`${this.origin}${path}`, { dispatcher: this.agent, headers: { authorization: `Bearer ${this.key}` } });
        const text = await response.body.text();
        if (response.statusCode !== 200)
            throw new Error(`GET ${path}: HTTP ${response.statusCode} ${text.slice(0, 300)}`);
        return JSON.parse(text);
    }
    /** Idempotent. */
    close() {
        this.closed ??= this.agent.close();
        return this.closed;
    }
    closed = null;
}
exports.ApiClient = ApiClient;
function overviewPath(start, end, hourly) {
    const query = new URLSearchParams({ start_date: start.toISOString(), end_date: end.toISOString(), granularity: hourly ? 'hourly' : 'daily' });
    return `/v1/analytics/overview?${query}`;
}
async function timeOverview(api, path, warmup, runs) {
    let last = null;
    const samplesMs = await (0, analytics_stats_1.timeSequential)(warmup, runs, async () => {
        last = await api.get(path);
    });
    const o = last;
    return {
        samplesMs,
        headline: {
            totalCalls: o.summary.total_calls, connectedCalls: o.summary.connected_calls, p95: o.performance.p95_latency_ms, p99: o.performance.p99_latency_ms,
            trunks: o.by_trunk.length, buckets: o.timeseries.length,
        },
    };
}
/**
 * Walks `walkPages` pages by next_cursor, timing each. Page `pages`'s cursor comes from the walk
 * when it gets that far, otherwise from the last row of the page before it read by offset: the
 * same cursor next_cursor would carry (encodeCursor of that row), so a short walk still measures
 * the deep page.
 */
async function measurePages(api, sizes, runs) {
    const { pageSize, pages } = sizes;
    const first = `/v1/calls?limit=${pageSize}`;
    const walkMs = [];
    let cursor = null;
    let page = null;
    const walkTo = Math.min(pages, sizes.walkPages);
    for (let n = 1; n <= walkTo; n++) {
        if (n > 1 && cursor === null)
            throw new Error(`GET /v1/calls: no next_cursor after page ${n - 1}`);
        const started = performance.now();
        page = await api.get(n === 1 ? first : `${first}&cursor=${encodeURIComponent(cursor)}`);
        walkMs.push(performance.now() - started);
        cursor = page.pagination.next_cursor;
    }
    if (walkTo < pages) {
        const before = await api.get(`${first}&offset=${(pages - 2) * pageSize}`);
        const last = before.calls[before.calls.length - 1];
        cursor = (0, call_cursor_1.encodeCursor)({ startMs: Date.parse(last.start_time), callId: last.id }, (0, call_cursor_1.filterFingerprint)({}));
    }
    const cursorPath = pages === 1 ? first : `${first}&cursor=${encodeURIComponent(cursor)}`;
    const offsetPath = `${first}&offset=${(pages - 1) * pageSize}`;
    const [cursorPage, offsetPage] = [await api.get(cursorPath), await api.get(offsetPath)];
    return {
        pageSize, pages, total: offsetPage.pagination.total, walkMs, cursorFrom: walkTo < pages ? 'offset' : 'walk',
        page1Ms: await (0, analytics_stats_1.timeSequential)(1, runs, () => api.get(first)),
        cursorPageMs: await (0, analytics_stats_1.timeSequential)(1, runs, () => api.get(cursorPath)),
        offsetPageMs: await (0, analytics_stats_1.timeSequential)(1, runs, () => api.get(offsetPath)),
        sameRows: cursorPage.calls.length > 0 && cursorPage.calls.map((c) => c.id).join() === offsetPage.calls.map((c) => c.id).join(),
    };
}
//# sourceMappingURL=analytics-http.js.map