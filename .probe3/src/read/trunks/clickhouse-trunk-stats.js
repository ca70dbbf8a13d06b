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
exports.ClickHouseTrunkStats = void 0;
const common_1 = require("@nestjs/common");
const clickhouse_port_1 = require("../../infrastructure/clickhouse/clickhouse.port");
const DAY_MS = 86_400_000;
/** The `stats` of a trunk-list page: one query on the hourly aggregates for the whole page. */
let ClickHouseTrunkStats = class ClickHouseTrunkStats {
    clickhouse;
    constructor(clickhouse) {
        this.clickhouse = clickhouse;
    }
    async statsFor(accountId, trunkIds, now) {
        const dayStart = Math.floor(now.getTime() / DAY_MS) * DAY_MS;
        const rows = await this.clickhouse.query(`SELECT trunk_id, sum(calls) AS calls, sum(connected) AS connected, sum(latency_calls) AS latency_calls, sum(total_latency_sum) AS latency_sum
       FROM call_stats_hourly
       WHERE account_id = {account:String} AND hour >= toDateTime({day_s:Int64}, 'UTC') AND trunk_id IN {ids:Array(String)}
       GROUP BY trunk_id`, { account: accountId, day_s: dayStart / 1000, ids: trunkIds });
        const stats = new Map();
        for (const row of rows) {
            const calls = Number(row.calls);
            const latencyCalls = Number(row.latency_calls);
            stats.set(row.trunk_id, {
                calls_today: calls,
                success_rate: calls === 0 ? 0 : Math.round((10_000 * Number(row.connected)) / calls) / 100,
                avg_latency_ms: latencyCalls === 0 ? 0 : Math.round(Number(row.latency_sum) / latencyCalls),
            });
        }
        return stats;
    }
};
exports.ClickHouseTrunkStats = ClickHouseTrunkStats;
exports.ClickHouseTrunkStats = ClickHouseTrunkStats = __decorate([
    (0, common_1.Injectable)(),
    __param(0, (0, common_1.Inject)(clickhouse_port_1.CLICKHOUSE)),
    __metadata("design:paramtypes", [Object])
], ClickHouseTrunkStats);
//# sourceMappingURL=clickhouse-trunk-stats.js.map