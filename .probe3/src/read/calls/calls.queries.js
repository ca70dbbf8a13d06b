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
exports.GetCallHandler = exports.ListCallsHandler = exports.GetCall = exports.ListCalls = void 0;
const common_1 = require("@nestjs/common");
const cqrs_1 = require("@nestjs/cqrs");
const clickhouse_port_1 = require("../../infrastructure/clickhouse/clickhouse.port");
const domain_error_1 = require("../../shared/domain-error");
const call_cursor_1 = require("./call-cursor");
const time_range_1 = require("./time-range");
class ListCalls {
    accountId;
    query;
    constructor(accountId, query) {
        this.accountId = accountId;
        this.query = query;
    }
}
exports.ListCalls = ListCalls;
class GetCall {
    accountId;
    callId;
    constructor(accountId, callId) {
        this.accountId = accountId;
        this.callId = callId;
    }
}
exports.GetCall = GetCall;
const LIST_COLUMNS = `call_id, trunk_id, from_number, to_number, status, duration_seconds, direction,
  toUnixTimestamp64Milli(start_time) AS start_ms, if(end_time IS NULL, NULL, toUnixTimestamp64Milli(end_time)) AS end_ms,
  carrier_lag_ms, ai_latency_ms, gateway_processing_ms`;
/**
 * Newest first by (start_time, call_id), the table's own order, so a cursor page is a range
 * read that costs the same at any depth. FINAL shows each call's latest version only.
 */
let ListCallsHandler = class ListCallsHandler {
    clickhouse;
    constructor(clickhouse) {
        this.clickhouse = clickhouse;
    }
    async execute({ accountId, query }) {
        const { where, params } = filters(accountId, query);
        const fingerprint = (0, call_cursor_1.filterFingerprint)(query);
        let page = where;
        if (query.cursor !== undefined) {
            const cursor = (0, call_cursor_1.decodeCursor)(query.cursor, fingerprint);
            page += ' AND (start_time, call_id) < (fromUnixTimestamp64Milli({cursor_ms:Int64}, \'UTC\'), {cursor_id:String})';
            Object.assign(params, { cursor_ms: cursor.startMs, cursor_id: cursor.callId });
        }
        const offset = query.cursor !== undefined ? 0 : query.offset;
        const [rows, [count]] = await Promise.all([
            this.clickhouse.query(`SELECT ${LIST_COLUMNS} FROM call_records FINAL WHERE ${page} ORDER BY start_time DESC, call_id DESC LIMIT {limit:UInt32} OFFSET {offset:UInt64}`, { ...params, limit: query.limit + 1, offset }),
            this.clickhouse.query(`SELECT count() AS total FROM call_records FINAL WHERE ${where}`, params),
        ]);
        const hasMore = rows.length > query.limit;
        const calls = rows.slice(0, query.limit).map(listItem);
        const last = rows[query.limit - 1];
        return {
            calls,
            pagination: {
                limit: query.limit, offset, total: Number(count.total), has_more: hasMore,
                next_cursor: hasMore && last ? (0, call_cursor_1.encodeCursor)({ startMs: Number(last.start_ms), callId: last.call_id }, fingerprint) : null,
            },
        };
    }
};
exports.ListCallsHandler = ListCallsHandler;
exports.ListCallsHandler = ListCallsHandler = __decorate([
    (0, cqrs_1.QueryHandler)(ListCalls),
    __param(0, (0, common_1.Inject)(clickhouse_port_1.CLICKHOUSE)),
    __metadata("design:paramtypes", [Object])
], ListCallsHandler);
let GetCallHandler = class GetCallHandler {
    clickhouse;
    constructor(clickhouse) {
        this.clickhouse = clickhouse;
    }
    async execute({ accountId, callId }) {
        const [row] = await this.clickhouse.query(`SELECT ${LIST_COLUMNS}, packet_loss_percent, jitter_ms, codec_used, disconnect_reason, turns, sip_trace
       FROM call_records FINAL WHERE account_id = {account:String} AND call_id = {id:String} LIMIT 1`, { account: accountId, id: callId });
        if (!row)
            throw new domain_error_1.DomainError('not_found', `Call ${callId} not found`);
        const item = listItem(row);
        return {
            ...item,
            ...(row.disconnect_reason ? { disconnect_reason: row.disconnect_reason } : {}),
            metrics: {
                carrier_lag_ms: row.carrier_lag_ms, ai_latency_ms: row.ai_latency_ms, gateway_processing_ms: row.gateway_processing_ms,
                packet_loss_percent: row.packet_loss_percent, jitter_ms: row.jitter_ms, codec_used: row.codec_used || null,
            },
            turns: JSON.parse(row.turns || '[]'),
            sip_trace: row.sip_trace,
        };
    }
};
exports.GetCallHandler = GetCallHandler;
exports.GetCallHandler = GetCallHandler = __decorate([
    (0, cqrs_1.QueryHandler)(GetCall),
    __param(0, (0, common_1.Inject)(clickhouse_port_1.CLICKHOUSE)),
    __metadata("design:paramtypes", [Object])
], GetCallHandler);
function listItem(row) {
    return {
        id: row.call_id, trunk_id: row.trunk_id, from: row.from_number, to: row.to_number, status: row.status, duration_seconds: Number(row.duration_seconds),
        start_time: new Date(Number(row.start_ms)).toISOString(), end_time: row.end_ms === null ? null : new Date(Number(row.end_ms)).toISOString(),
        carrier_lag_ms: row.carrier_lag_ms, ai_latency_ms: row.ai_latency_ms, gateway_processing_ms: row.gateway_processing_ms, direction: row.direction,
    };
}
/** Every filter is a bound parameter; the SQL text only varies by which filters are present. */
function filters(accountId, q) {
    const clauses = ['account_id = {account:String}'];
    const params = { account: accountId };
    const add = (clause, name, value) => {
        if (value === undefined)
            return;
        clauses.push(clause);
        params[name] = value;
    };
    add('trunk_id = {trunk:String}', 'trunk', q.trunk_id);
    add('status = {status:String}', 'status', q.status);
    add('from_number = {from:String}', 'from', q.from);
    add('to_number = {to:String}', 'to', q.to);
    add('direction = {direction:String}', 'direction', q.direction);
    const start = q.start_date !== undefined ? (0, time_range_1.parseBound)(q.start_date, 'start_date', 'start') : undefined;
    const end = q.end_date !== undefined ? (0, time_range_1.parseBound)(q.end_date, 'end_date', 'end') : undefined;
    if (start && end && end < start)
        throw new domain_error_1.DomainError('invalid_params', 'end_date is before start_date', { param: 'end_date' });
    add("start_time >= fromUnixTimestamp64Milli({start_ms:Int64}, 'UTC')", 'start_ms', start?.getTime());
    add("start_time <= fromUnixTimestamp64Milli({end_ms:Int64}, 'UTC')", 'end_ms', end?.getTime());
    return { where: clauses.join(' AND '), params };
}
//# sourceMappingURL=calls.queries.js.map