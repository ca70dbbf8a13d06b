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
exports.AnalyticsQueryDto = void 0;
const swagger_1 = require("@nestjs/swagger");
const class_validator_1 = require("class-validator");
const DATE_OR_INSTANT = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2}))?$/;
class AnalyticsQueryDto {
    start_date;
    end_date;
    trunk_id;
    granularity = 'daily';
}
exports.AnalyticsQueryDto = AnalyticsQueryDto;
__decorate([
    (0, swagger_1.ApiPropertyOptional)({ description: 'Instant or date (UTC); default 7 days before end_date' }),
    (0, class_validator_1.IsOptional)(),
    (0, class_validator_1.Matches)(DATE_OR_INSTANT, { message: 'start_date must be an ISO 8601 instant or date' }),
    __metadata("design:type", String)
], AnalyticsQueryDto.prototype, "start_date", void 0);
__decorate([
    (0, swagger_1.ApiPropertyOptional)({ description: 'Instant or date (a date means the end of that UTC day); default now' }),
    (0, class_validator_1.IsOptional)(),
    (0, class_validator_1.Matches)(DATE_OR_INSTANT, { message: 'end_date must be an ISO 8601 instant or date' }),
    __metadata("design:type", String)
], AnalyticsQueryDto.prototype, "end_date", void 0);
__decorate([
    (0, swagger_1.ApiPropertyOptional)(),
    (0, class_validator_1.IsOptional)(),
    (0, class_validator_1.Matches)(/^conn_[A-Za-z0-9]{1,64}$/, { message: 'trunk_id must be a trunk id (conn_…)' }),
    __metadata("design:type", String)
], AnalyticsQueryDto.prototype, "trunk_id", void 0);
__decorate([
    (0, swagger_1.ApiPropertyOptional)({ enum: ['daily', 'hourly'], default: 'daily' }),
    (0, class_validator_1.IsOptional)(),
    (0, class_validator_1.IsIn)(['daily', 'hourly'], { message: 'granularity must be daily or hourly' }),
    __metadata("design:type", String)
], AnalyticsQueryDto.prototype, "granularity", void 0);
//# sourceMappingURL=analytics.dto.js.map