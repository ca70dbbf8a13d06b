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
Object.defineProperty(exports, "__esModule", { value: true });
exports.CallDetailDto = exports.TurnDto = exports.CallMetricsDto = exports.CallListDto = exports.CallPaginationDto = exports.CallListItemDto = exports.ListCallsQueryDto = void 0;
const swagger_1 = require("@nestjs/swagger");
const class_validator_1 = require("class-validator");
const pagination_1 = require("../../platform/http/pagination");
const DATE_OR_INSTANT = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2}))?$/;
const E164 = /^\+[1-9]\d{1,14}$/;
class ListCallsQueryDto extends pagination_1.PaginationQueryDto {
    trunk_id;
    status;
    start_date;
    end_date;
    from;
    to;
    direction;
    cursor;
}
exports.ListCallsQueryDto = ListCallsQueryDto;
__decorate([
    (0, swagger_1.ApiPropertyOptional)(),
    (0, class_validator_1.IsOptional)(),
    (0, class_validator_1.Matches)(/^conn_[A-Za-z0-9]{1,64}$/, { message: 'trunk_id must be a trunk id (conn_…)' }),
    __metadata("design:type", String)
], ListCallsQueryDto.prototype, "trunk_id", void 0);
__decorate([
    (0, swagger_1.ApiPropertyOptional)({ enum: ['connected', 'failed', 'disconnected'] }),
    (0, class_validator_1.IsOptional)(),
    (0, class_validator_1.IsIn)(['connected', 'failed', 'disconnected'], { message: 'status must be connected, failed or disconnected' }),
    __metadata("design:type", String)
], ListCallsQueryDto.prototype, "status", void 0);
__decorate([
    (0, swagger_1.ApiPropertyOptional)({ description: 'Calls starting on or after this instant (or date)' }),
    (0, class_validator_1.IsOptional)(),
    (0, class_validator_1.Matches)(DATE_OR_INSTANT, { message: 'start_date must be an ISO 8601 instant or date' }),
    __metadata("design:type", String)
], ListCallsQueryDto.prototype, "start_date", void 0);
__decorate([
    (0, swagger_1.ApiPropertyOptional)({ description: 'Calls starting on or before this instant (a date means the end of that UTC day)' }),
    (0, class_validator_1.IsOptional)(),
    (0, class_validator_1.Matches)(DATE_OR_INSTANT, { message: 'end_date must be an ISO 8601 instant or date' }),
    __metadata("design:type", String)
], ListCallsQueryDto.prototype, "end_date", void 0);
__decorate([
    (0, swagger_1.ApiPropertyOptional)({ description: 'Exact caller number (E.164)' }),
    (0, class_validator_1.IsOptional)(),
    (0, class_validator_1.Matches)(E164, { message: 'from must be an E.164 number' }),
    __metadata("design:type", String)
], ListCallsQueryDto.prototype, "from", void 0);
__decorate([
    (0, swagger_1.ApiPropertyOptional)({ description: 'Exact called number (E.164)' }),
    (0, class_validator_1.IsOptional)(),
    (0, class_validator_1.Matches)(E164, { message: 'to must be an E.164 number' }),
    __metadata("design:type", String)
], ListCallsQueryDto.prototype, "to", void 0);
__decorate([
    (0, swagger_1.ApiPropertyOptional)({ enum: ['inbound', 'outbound'] }),
    (0, class_validator_1.IsOptional)(),
    (0, class_validator_1.IsIn)(['inbound', 'outbound'], { message: 'direction must be inbound or outbound' }),
    __metadata("design:type", String)
], ListCallsQueryDto.prototype, "direction", void 0);
__decorate([
    (0, swagger_1.ApiPropertyOptional)({ description: 'next_cursor of the previous page; continues after it at constant cost' }),
    (0, class_validator_1.IsOptional)(),
    (0, class_validator_1.Matches)(/^[A-Za-z0-9_-]{1,512}$/, { message: 'cursor is not a cursor this API returned' }),
    __metadata("design:type", String)
], ListCallsQueryDto.prototype, "cursor", void 0);
class CallListItemDto {
    id;
    trunk_id;
    from;
    to;
    status;
    duration_seconds;
    start_time;
    end_time;
    carrier_lag_ms;
    ai_latency_ms;
    gateway_processing_ms;
    direction;
}
exports.CallListItemDto = CallListItemDto;
__decorate([
    (0, swagger_1.ApiProperty)(),
    __metadata("design:type", String)
], CallListItemDto.prototype, "id", void 0);
__decorate([
    (0, swagger_1.ApiProperty)(),
    __metadata("design:type", String)
], CallListItemDto.prototype, "trunk_id", void 0);
__decorate([
    (0, swagger_1.ApiProperty)(),
    __metadata("design:type", String)
], CallListItemDto.prototype, "from", void 0);
__decorate([
    (0, swagger_1.ApiProperty)(),
    __metadata("design:type", String)
], CallListItemDto.prototype, "to", void 0);
__decorate([
    (0, swagger_1.ApiProperty)({ enum: ['connected', 'failed', 'disconnected'] }),
    __metadata("design:type", String)
], CallListItemDto.prototype, "status", void 0);
__decorate([
    (0, swagger_1.ApiProperty)(),
    __metadata("design:type", Number)
], CallListItemDto.prototype, "duration_seconds", void 0);
__decorate([
    (0, swagger_1.ApiProperty)({ format: 'date-time' }),
    __metadata("design:type", String)
], CallListItemDto.prototype, "start_time", void 0);
__decorate([
    (0, swagger_1.ApiProperty)({ format: 'date-time', nullable: true, type: String }),
    __metadata("design:type", Object)
], CallListItemDto.prototype, "end_time", void 0);
__decorate([
    (0, swagger_1.ApiProperty)({ nullable: true, type: Number }),
    __metadata("design:type", Object)
], CallListItemDto.prototype, "carrier_lag_ms", void 0);
__decorate([
    (0, swagger_1.ApiProperty)({ nullable: true, type: Number }),
    __metadata("design:type", Object)
], CallListItemDto.prototype, "ai_latency_ms", void 0);
__decorate([
    (0, swagger_1.ApiProperty)({ nullable: true, type: Number }),
    __metadata("design:type", Object)
], CallListItemDto.prototype, "gateway_processing_ms", void 0);
__decorate([
    (0, swagger_1.ApiProperty)({ enum: ['inbound', 'outbound'] }),
    __metadata("design:type", String)
], CallListItemDto.prototype, "direction", void 0);
class CallPaginationDto extends pagination_1.PaginationDto {
    next_cursor;
    has_more;
}
exports.CallPaginationDto = CallPaginationDto;
__decorate([
    (0, swagger_1.ApiProperty)({ nullable: true, type: String }),
    __metadata("design:type", Object)
], CallPaginationDto.prototype, "next_cursor", void 0);
__decorate([
    (0, swagger_1.ApiProperty)(),
    __metadata("design:type", Boolean)
], CallPaginationDto.prototype, "has_more", void 0);
class CallListDto {
    calls;
    pagination;
}
exports.CallListDto = CallListDto;
__decorate([
    (0, swagger_1.ApiProperty)({ type: [CallListItemDto] }),
    __metadata("design:type", Array)
], CallListDto.prototype, "calls", void 0);
__decorate([
    (0, swagger_1.ApiProperty)({ type: CallPaginationDto }),
    __metadata("design:type", CallPaginationDto)
], CallListDto.prototype, "pagination", void 0);
class CallMetricsDto {
    carrier_lag_ms;
    ai_latency_ms;
    gateway_processing_ms;
    packet_loss_percent;
    jitter_ms;
    codec_used;
}
exports.CallMetricsDto = CallMetricsDto;
__decorate([
    (0, swagger_1.ApiProperty)({ nullable: true, type: Number }),
    __metadata("design:type", Object)
], CallMetricsDto.prototype, "carrier_lag_ms", void 0);
__decorate([
    (0, swagger_1.ApiProperty)({ nullable: true, type: Number }),
    __metadata("design:type", Object)
], CallMetricsDto.prototype, "ai_latency_ms", void 0);
__decorate([
    (0, swagger_1.ApiProperty)({ nullable: true, type: Number }),
    __metadata("design:type", Object)
], CallMetricsDto.prototype, "gateway_processing_ms", void 0);
__decorate([
    (0, swagger_1.ApiProperty)({ nullable: true, type: Number }),
    __metadata("design:type", Object)
], CallMetricsDto.prototype, "packet_loss_percent", void 0);
__decorate([
    (0, swagger_1.ApiProperty)({ nullable: true, type: Number }),
    __metadata("design:type", Object)
], CallMetricsDto.prototype, "jitter_ms", void 0);
__decorate([
    (0, swagger_1.ApiProperty)({ nullable: true, type: String }),
    __metadata("design:type", Object)
], CallMetricsDto.prototype, "codec_used", void 0);
class TurnDto {
    turn_number;
    speaker;
    duration_ms;
    processing_time_ms;
}
exports.TurnDto = TurnDto;
__decorate([
    (0, swagger_1.ApiProperty)(),
    __metadata("design:type", Number)
], TurnDto.prototype, "turn_number", void 0);
__decorate([
    (0, swagger_1.ApiProperty)({ enum: ['caller', 'agent'] }),
    __metadata("design:type", String)
], TurnDto.prototype, "speaker", void 0);
__decorate([
    (0, swagger_1.ApiProperty)(),
    __metadata("design:type", Number)
], TurnDto.prototype, "duration_ms", void 0);
__decorate([
    (0, swagger_1.ApiProperty)(),
    __metadata("design:type", Number)
], TurnDto.prototype, "processing_time_ms", void 0);
class CallDetailDto extends CallListItemDto {
    disconnect_reason;
    metrics;
    turns;
    sip_trace;
}
exports.CallDetailDto = CallDetailDto;
__decorate([
    (0, swagger_1.ApiPropertyOptional)(),
    __metadata("design:type", String)
], CallDetailDto.prototype, "disconnect_reason", void 0);
__decorate([
    (0, swagger_1.ApiProperty)({ type: CallMetricsDto }),
    __metadata("design:type", CallMetricsDto)
], CallDetailDto.prototype, "metrics", void 0);
__decorate([
    (0, swagger_1.ApiProperty)({ type: [TurnDto] }),
    __metadata("design:type", Array)
], CallDetailDto.prototype, "turns", void 0);
__decorate([
    (0, swagger_1.ApiProperty)({ description: 'Raw SIP signalling, lines separated by \\n' }),
    __metadata("design:type", String)
], CallDetailDto.prototype, "sip_trace", void 0);
//# sourceMappingURL=call.dto.js.map