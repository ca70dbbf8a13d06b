"use strict";
var __decorate = (this && this.__decorate) || function (decorators, target, key, desc) {
    var c = arguments.length, r = c < 3 ? target : desc === null ? desc = Object.getOwnPropertyDescriptor(target, key) : desc, d;
    if (typeof Reflect === "object" && typeof Reflect.decorate === "function") r = Reflect.decorate(decorators, target, key, desc);
    else for (var i = decorators.length - 1; i >= 0; i--) if (d = decorators[i]) r = (c < 3 ? d(r) : c > 3 ? d(target, key, r) : d(target, key)) || r;
    return c > 3 && r && Object.defineProperty(target, key, r), r;
};
var __metadata = (this && this.__metadata) || function (k, v) {
    if (typeof Reflect === "object" && typeof Reflect.metadata === "function") return Reflect.metadata(k, v);
};
var __param = (this && this.__param) || function (paramIndex, decorator) {
    return function (target, key) { decorator(target, key, paramIndex); }
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.GetAnalyticsOverviewHandler = exports.GetAnalyticsOverview = void 0;
const common_1 = require("@nestjs/common");
const cqrs_1 = require("@nestjs/cqrs");
const clickhouse_port_1 = require("../../infrastructure/clickhouse/clickhouse.port");
const domain_error_1 = require("../../shared/domain-error");
const time_range_1 = require("../calls/time-range");
const analytics_math_1 = require("./analytics.math");
const analytics_sql_1 = require("./analytics.sql");
const HOUR = 3_600_000;
const DAY = 86_400_000;
const MAX_RANGE = 400 * DAY;
class GetAnalyticsOverview {
    accountId;
    query;
    now;
    constructor(accountId, query, now) {
        this.accountId = accountId;
        this.query = query;
        this.now = now;
    }
}
exports.GetAnalyticsOverview = GetAnalyticsOverview;
/**
 * Whole hours come from the hourly aggregates; the partial hours at either edge of the range
 * from the raw records, so any instant range is exact, not rounded to hours.
 */
let GetAnalyticsOverviewHandler = class GetAnalyticsOverviewHandler {
    clickhouse;
    constructor(clickhouse) {
        this.clickhouse = clickhouse;
    }
    async execute({ accountId, query, now }) {
        const end = query.end_date ? (0, time_range_1.parseBound)(query.end_date, 'end_date', 'end') : now;
        const start = query.start_date ? (0, time_range_1.parseBound)(query.start_date, 'start_date', 'start') : new Date(end.getTime() - 7 * DAY);
        if (end < start)
            throw new domain_error_1.DomainError('invalid_params', 'end_date is before start_date', { param: 'end_date' });
        if (end.getTime() - start.getTime() > MAX_RANGE)
            throw new domain_error_1.DomainError('invalid_params', 'The range is longer than 400 days', { param: 'start_date' });
        const hourly = query.granularity === 'hourly';
        const [grouped, dimension] = await Promise.all([this.grouped(accountId, query.trunk_id, start, end, hourly), this.dimension(accountId)]);
        return present(grouped, dimension, start, end, hourly);
    }
    async grouped(accountId, trunkId, start, end, hourly) {
        const from = start.getTime();
        const to = end.getTime() + 1;
        const wholeFrom = Math.ceil(from / HOUR) * HOUR;
        const wholeTo = Math.floor(to / HOUR) * HOUR;
        const base = { account: accountId, ...(trunkId ? { trunk: trunkId } : {}) };
        const raw = (a, b) => this.clickhouse.query((0, analytics_sql_1.rawSql)(hourly, !!trunkId), { ...base, from_ms: a, to_ms: b });
        const parts = [];
        if (wholeFrom < wholeTo) {
            parts.push(this.clickhouse.query((0, analytics_sql_1.aggregatesSql)(hourly, !!trunkId), { ...base, from_s: wholeFrom / 1000, to_s: wholeTo / 1000 }));
            if (from < wholeFrom)
                parts.push(raw(from, wholeFrom));
            if (wholeTo < to)
                parts.push(raw(wholeTo, to));
        }
        else {
            parts.push(raw(from, to));
        }
        const grouped = { total: (0, analytics_math_1.emptyTotals)(), byTrunk: new Map(), byBucket: new Map() };
        for (const row of (await Promise.all(parts)).flat()) {
            if (Number(row.all_trunks) === 1 && Number(row.all_buckets) === 1)
                (0, analytics_math_1.addRow)(grouped.total, row);
            else if (Number(row.all_buckets) === 1)
                (0, analytics_math_1.addRow)(slot(grouped.byTrunk, row.trunk_id), row);
            else
                (0, analytics_math_1.addRow)(slot(grouped.byBucket, Number(row.bucket) * 1000), row);
        }
        return grouped;
    }
    async dimension(accountId) {
        const rows = await this.clickhouse.query(analytics_sql_1.TRUNK_DIMENSION_SQL, { account: accountId });
        return new Map(rows.map((r) => [r.trunk_id, { name: r.name, provider: r.provider }]));
    }
};
exports.GetAnalyticsOverviewHandler = GetAnalyticsOverviewHandler;
exports.GetAnalyticsOverviewHandler = GetAnalyticsOverviewHandler = __decorate([
    (0, cqrs_1.QueryHandler)(GetAnalyticsOverview),
    __param(0, (0, common_1.Inject)(clickhouse_port_1.CLICKHOUSE)),
    __metadata("design:paramtypes", [Object])
], GetAnalyticsOverviewHandler);
function slot(map, key) {
    let totals = map.get(key);
    if (!totals)
        map.set(key, (totals = (0, analytics_math_1.emptyTotals)()));
    return totals;
}
function present(g, dimension, start, end, hourly) {
    const t = g.total;
    const byProvider = new Map();
    for (const [trunkId, totals] of g.byTrunk) {
        const provider = slot(byProvider, dimension.get(trunkId)?.provider ?? 'unknown');
        provider.calls += totals.calls;
        provider.connected += totals.connected;
        provider.latencyCalls += totals.latencyCalls;
        provider.totalLatencySum += totals.totalLatencySum;
    }
    return {
        period: { start_date: start.toISOString(), end_date: end.toISOString() },
        summary: {
            total_calls: t.calls, connected_calls: t.connected, failed_calls: t.failed, success_rate: (0, analytics_math_1.percent)(t.connected, t.calls),
            total_duration_seconds: t.durationSum, avg_duration_seconds: (0, analytics_math_1.round2)((0, analytics_math_1.ratio)(t.durationSum, t.calls)),
        },
        performance: {
            avg_carrier_lag_ms: (0, analytics_math_1.avgInt)(t.carrierSum, t.latencyCalls), avg_ai_latency_ms: (0, analytics_math_1.avgInt)(t.aiSum, t.latencyCalls),
            avg_gateway_processing_ms: (0, analytics_math_1.avgInt)(t.gatewaySum, t.latencyCalls), avg_total_latency_ms: (0, analytics_math_1.avgInt)(t.totalLatencySum, t.latencyCalls),
            p95_latency_ms: (0, analytics_math_1.percentile)(t.hist, 0.95), p99_latency_ms: (0, analytics_math_1.percentile)(t.hist, 0.99),
        },
        quality: { avg_packet_loss_percent: (0, analytics_math_1.round2)((0, analytics_math_1.ratio)(t.lossSum, t.lossCalls)), avg_jitter_ms: (0, analytics_math_1.avgInt)(t.jitterSum, t.jitterCalls), codec_distribution: (0, analytics_math_1.codecDistribution)(t.codecs) },
        by_provider: [...byProvider.entries()]
            .filter(([, p]) => p.calls > 0)
            .sort((a, b) => b[1].calls - a[1].calls || a[0].localeCompare(b[0]))
            .map(([provider, p]) => ({ provider, call_count: p.calls, success_rate: (0, analytics_math_1.percent)(p.connected, p.calls), avg_latency_ms: (0, analytics_math_1.avgInt)(p.totalLatencySum, p.latencyCalls) })),
        by_trunk: [...g.byTrunk.entries()]
            .filter(([, tr]) => tr.calls > 0)
            .sort((a, b) => b[1].calls - a[1].calls || a[0].localeCompare(b[0]))
            .map(([trunkId, tr]) => ({ trunk_id: trunkId, trunk_name: dimension.get(trunkId)?.name ?? trunkId, call_count: tr.calls, success_rate: (0, analytics_math_1.percent)(tr.connected, tr.calls) })),
        timeseries: buckets(start, end, hourly).map((at) => {
            const b = g.byBucket.get(at) ?? (0, analytics_math_1.emptyTotals)();
            return { timestamp: new Date(at).toISOString(), calls: b.calls, avg_latency_ms: (0, analytics_math_1.avgInt)(b.totalLatencySum, b.latencyCalls), success_rate: (0, analytics_math_1.percent)(b.connected, b.calls) };
        }),
    };
}
/** Every hour or UTC day touching the range, empty ones included. */
function buckets(start, end, hourly) {
    const step = hourly ? HOUR : DAY;
    const out = [];
    for (let at = Math.floor(start.getTime() / step) * step; at <= end.getTime(); at += step)
        out.push(at);
    return out;
}
//# sourceMappingURL=analytics.queries.js.map