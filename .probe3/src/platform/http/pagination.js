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
exports.PaginationDto = exports.PaginationQueryDto = exports.toInteger = void 0;
const swagger_1 = require("@nestjs/swagger");
const class_transformer_1 = require("class-transformer");
const class_validator_1 = require("class-validator");
/** Query strings arrive as text: digits become numbers, anything else stays text and fails IsInt. */
const toInteger = () => (0, class_transformer_1.Transform)(({ value }) => (typeof value === 'string' && /^-?\d{1,15}$/.test(value) ? Number(value) : value));
exports.toInteger = toInteger;
class PaginationQueryDto {
    limit = 20;
    offset = 0;
}
exports.PaginationQueryDto = PaginationQueryDto;
__decorate([
    (0, swagger_1.ApiPropertyOptional)({ minimum: 1, maximum: 100, default: 20 }),
    (0, class_validator_1.IsOptional)(),
    (0, exports.toInteger)(),
    (0, class_validator_1.IsInt)({ message: 'limit must be an integer between 1 and 100' }),
    (0, class_validator_1.Min)(1, { message: 'limit must be an integer between 1 and 100' }),
    (0, class_validator_1.Max)(100, { message: 'limit must be an integer between 1 and 100' }),
    __metadata("design:type", Number)
], PaginationQueryDto.prototype, "limit", void 0);
__decorate([
    (0, swagger_1.ApiPropertyOptional)({ minimum: 0, default: 0 }),
    (0, class_validator_1.IsOptional)(),
    (0, exports.toInteger)(),
    (0, class_validator_1.IsInt)({ message: 'offset must be a non-negative integer' }),
    (0, class_validator_1.Min)(0, { message: 'offset must be a non-negative integer' }),
    __metadata("design:type", Number)
], PaginationQueryDto.prototype, "offset", void 0);
class PaginationDto {
    limit;
    offset;
    total;
}
exports.PaginationDto = PaginationDto;
__decorate([
    (0, swagger_1.ApiProperty)(),
    __metadata("design:type", Number)
], PaginationDto.prototype, "limit", void 0);
__decorate([
    (0, swagger_1.ApiProperty)(),
    __metadata("design:type", Number)
], PaginationDto.prototype, "offset", void 0);
__decorate([
    (0, swagger_1.ApiProperty)({ description: 'Number of matching items' }),
    __metadata("design:type", Number)
], PaginationDto.prototype, "total", void 0);
//# sourceMappingURL=pagination.js.map