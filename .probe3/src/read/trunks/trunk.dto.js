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
exports.TrunkHistoryDto = exports.TrunkHistoryEventDto = exports.TrunkDetailDto = exports.TrunkListDto = exports.TrunkListItemDto = exports.TrunkStatsDto = exports.TrunkHistoryQueryDto = exports.GetTrunkQueryDto = exports.ListTrunksQueryDto = void 0;
const swagger_1 = require("@nestjs/swagger");
const class_validator_1 = require("class-validator");
const pagination_1 = require("../../platform/http/pagination");
const trunk_types_1 = require("../../write/trunks/domain/trunk.types");
const trunk_settings_dto_1 = require("../../write/trunks/dto/trunk-settings.dto");
class ListTrunksQueryDto extends pagination_1.PaginationQueryDto {
    status;
    sort = '-created_at';
}
exports.ListTrunksQueryDto = ListTrunksQueryDto;
__decorate([
    (0, swagger_1.ApiPropertyOptional)({ enum: trunk_types_1.TRUNK_STATUSES }),
    (0, class_validator_1.IsOptional)(),
    (0, class_validator_1.IsIn)(trunk_types_1.TRUNK_STATUSES, { message: 'status must be active, inactive or error' }),
    __metadata("design:type", String)
], ListTrunksQueryDto.prototype, "status", void 0);
__decorate([
    (0, swagger_1.ApiPropertyOptional)({ enum: ['created_at', '-created_at'], default: '-created_at', description: 'created_at: oldest first; -created_at: newest first' }),
    (0, class_validator_1.IsOptional)(),
    (0, class_validator_1.IsIn)(['created_at', '-created_at'], { message: 'sort must be created_at or -created_at' }),
    __metadata("design:type", String)
], ListTrunksQueryDto.prototype, "sort", void 0);
class GetTrunkQueryDto {
    as_of;
}
exports.GetTrunkQueryDto = GetTrunkQueryDto;
__decorate([
    (0, swagger_1.ApiPropertyOptional)({ format: 'date-time', description: 'The trunk as it was at this instant (from its history)' }),
    (0, class_validator_1.IsOptional)(),
    (0, class_validator_1.IsISO8601)({ strict: true }, { message: 'as_of must be an ISO 8601 instant' }),
    __metadata("design:type", String)
], GetTrunkQueryDto.prototype, "as_of", void 0);
class TrunkHistoryQueryDto extends pagination_1.PaginationQueryDto {
    limit = 100;
}
exports.TrunkHistoryQueryDto = TrunkHistoryQueryDto;
class TrunkStatsDto {
    calls_today;
    success_rate;
    avg_latency_ms;
}
exports.TrunkStatsDto = TrunkStatsDto;
__decorate([
    (0, swagger_1.ApiProperty)(),
    __metadata("design:type", Number)
], TrunkStatsDto.prototype, "calls_today", void 0);
__decorate([
    (0, swagger_1.ApiProperty)({ description: '0-100' }),
    __metadata("design:type", Number)
], TrunkStatsDto.prototype, "success_rate", void 0);
__decorate([
    (0, swagger_1.ApiProperty)(),
    __metadata("design:type", Number)
], TrunkStatsDto.prototype, "avg_latency_ms", void 0);
class TrunkListItemDto {
    id;
    name;
    status;
    ai_provider;
    sip_username;
    created_at;
    updated_at;
    stats;
}
exports.TrunkListItemDto = TrunkListItemDto;
__decorate([
    (0, swagger_1.ApiProperty)(),
    __metadata("design:type", String)
], TrunkListItemDto.prototype, "id", void 0);
__decorate([
    (0, swagger_1.ApiProperty)(),
    __metadata("design:type", String)
], TrunkListItemDto.prototype, "name", void 0);
__decorate([
    (0, swagger_1.ApiProperty)({ enum: trunk_types_1.TRUNK_STATUSES }),
    __metadata("design:type", String)
], TrunkListItemDto.prototype, "status", void 0);
__decorate([
    (0, swagger_1.ApiProperty)({ enum: trunk_types_1.PROVIDERS }),
    __metadata("design:type", String)
], TrunkListItemDto.prototype, "ai_provider", void 0);
__decorate([
    (0, swagger_1.ApiProperty)(),
    __metadata("design:type", String)
], TrunkListItemDto.prototype, "sip_username", void 0);
__decorate([
    (0, swagger_1.ApiProperty)({ format: 'date-time' }),
    __metadata("design:type", String)
], TrunkListItemDto.prototype, "created_at", void 0);
__decorate([
    (0, swagger_1.ApiProperty)({ format: 'date-time' }),
    __metadata("design:type", String)
], TrunkListItemDto.prototype, "updated_at", void 0);
__decorate([
    (0, swagger_1.ApiProperty)({ type: TrunkStatsDto }),
    __metadata("design:type", TrunkStatsDto)
], TrunkListItemDto.prototype, "stats", void 0);
class TrunkListDto {
    trunks;
    pagination;
}
exports.TrunkListDto = TrunkListDto;
__decorate([
    (0, swagger_1.ApiProperty)({ type: [TrunkListItemDto] }),
    __metadata("design:type", Array)
], TrunkListDto.prototype, "trunks", void 0);
__decorate([
    (0, swagger_1.ApiProperty)({ type: pagination_1.PaginationDto }),
    __metadata("design:type", pagination_1.PaginationDto)
], TrunkListDto.prototype, "pagination", void 0);
class TrunkDetailDto {
    id;
    name;
    status;
    ai_provider;
    sip_username;
    sip_endpoint;
    created_at;
    updated_at;
    system_prompt;
    vad;
    provider_settings;
    allowed_addresses;
    elevenlabs_agent_id;
    custom_endpoint;
}
exports.TrunkDetailDto = TrunkDetailDto;
__decorate([
    (0, swagger_1.ApiProperty)(),
    __metadata("design:type", String)
], TrunkDetailDto.prototype, "id", void 0);
__decorate([
    (0, swagger_1.ApiProperty)(),
    __metadata("design:type", String)
], TrunkDetailDto.prototype, "name", void 0);
__decorate([
    (0, swagger_1.ApiProperty)({ enum: trunk_types_1.TRUNK_STATUSES }),
    __metadata("design:type", String)
], TrunkDetailDto.prototype, "status", void 0);
__decorate([
    (0, swagger_1.ApiProperty)({ enum: trunk_types_1.PROVIDERS }),
    __metadata("design:type", String)
], TrunkDetailDto.prototype, "ai_provider", void 0);
__decorate([
    (0, swagger_1.ApiProperty)(),
    __metadata("design:type", String)
], TrunkDetailDto.prototype, "sip_username", void 0);
__decorate([
    (0, swagger_1.ApiProperty)(),
    __metadata("design:type", String)
], TrunkDetailDto.prototype, "sip_endpoint", void 0);
__decorate([
    (0, swagger_1.ApiProperty)({ format: 'date-time' }),
    __metadata("design:type", String)
], TrunkDetailDto.prototype, "created_at", void 0);
__decorate([
    (0, swagger_1.ApiProperty)({ format: 'date-time' }),
    __metadata("design:type", String)
], TrunkDetailDto.prototype, "updated_at", void 0);
__decorate([
    (0, swagger_1.ApiProperty)({ nullable: true, type: String }),
    __metadata("design:type", Object)
], TrunkDetailDto.prototype, "system_prompt", void 0);
__decorate([
    (0, swagger_1.ApiProperty)({ nullable: true, type: trunk_settings_dto_1.VadDto }),
    __metadata("design:type", Object)
], TrunkDetailDto.prototype, "vad", void 0);
__decorate([
    (0, swagger_1.ApiProperty)({ nullable: true, type: trunk_settings_dto_1.ProviderSettingsDto }),
    __metadata("design:type", Object)
], TrunkDetailDto.prototype, "provider_settings", void 0);
__decorate([
    (0, swagger_1.ApiProperty)({ nullable: true, type: [String] }),
    __metadata("design:type", Object)
], TrunkDetailDto.prototype, "allowed_addresses", void 0);
__decorate([
    (0, swagger_1.ApiProperty)({ nullable: true, type: String }),
    __metadata("design:type", Object)
], TrunkDetailDto.prototype, "elevenlabs_agent_id", void 0);
__decorate([
    (0, swagger_1.ApiProperty)({ nullable: true, type: String }),
    __metadata("design:type", Object)
], TrunkDetailDto.prototype, "custom_endpoint", void 0);
class TrunkHistoryEventDto {
    revision;
    type;
    recorded_at;
    actor;
    correlation_id;
    data;
}
exports.TrunkHistoryEventDto = TrunkHistoryEventDto;
__decorate([
    (0, swagger_1.ApiProperty)({ description: '0-based position in the trunk history' }),
    __metadata("design:type", Number)
], TrunkHistoryEventDto.prototype, "revision", void 0);
__decorate([
    (0, swagger_1.ApiProperty)({ example: 'TrunkCreated' }),
    __metadata("design:type", String)
], TrunkHistoryEventDto.prototype, "type", void 0);
__decorate([
    (0, swagger_1.ApiProperty)({ format: 'date-time' }),
    __metadata("design:type", String)
], TrunkHistoryEventDto.prototype, "recorded_at", void 0);
__decorate([
    (0, swagger_1.ApiProperty)({ description: 'API key id that acted' }),
    __metadata("design:type", Object)
], TrunkHistoryEventDto.prototype, "actor", void 0);
__decorate([
    (0, swagger_1.ApiProperty)({ description: 'The X-Request-Id of the request' }),
    __metadata("design:type", Object)
], TrunkHistoryEventDto.prototype, "correlation_id", void 0);
__decorate([
    (0, swagger_1.ApiProperty)({ description: 'Event data; secrets shown as "[redacted]"' }),
    __metadata("design:type", Object)
], TrunkHistoryEventDto.prototype, "data", void 0);
class TrunkHistoryDto {
    events;
    pagination;
}
exports.TrunkHistoryDto = TrunkHistoryDto;
__decorate([
    (0, swagger_1.ApiProperty)({ type: [TrunkHistoryEventDto] }),
    __metadata("design:type", Array)
], TrunkHistoryDto.prototype, "events", void 0);
__decorate([
    (0, swagger_1.ApiProperty)({ type: pagination_1.PaginationDto }),
    __metadata("design:type", pagination_1.PaginationDto)
], TrunkHistoryDto.prototype, "pagination", void 0);
//# sourceMappingURL=trunk.dto.js.map