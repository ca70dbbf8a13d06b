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
exports.ApiKeyListDto = exports.ApiKeyListItemDto = exports.ListApiKeysQueryDto = void 0;
const swagger_1 = require("@nestjs/swagger");
const class_validator_1 = require("class-validator");
const pagination_1 = require("../../../platform/http/pagination");
const issue_api_key_request_dto_1 = require("../../../write/api-keys/dto/issue-api-key.request.dto");
class ListApiKeysQueryDto extends pagination_1.PaginationQueryDto {
    account_id;
}
exports.ListApiKeysQueryDto = ListApiKeysQueryDto;
__decorate([
    (0, swagger_1.ApiPropertyOptional)({ description: 'Keys of this account; omitted: the admin keys' }),
    (0, class_validator_1.IsOptional)(),
    (0, class_validator_1.Matches)(/^acct_[A-Za-z0-9]{1,64}$/, { message: 'account_id must be an account id (acct_…)' }),
    __metadata("design:type", String)
], ListApiKeysQueryDto.prototype, "account_id", void 0);
class ApiKeyListItemDto extends issue_api_key_request_dto_1.ApiKeyDto {
    revoked_at;
    last_used_at;
    request_count;
    error_count;
}
exports.ApiKeyListItemDto = ApiKeyListItemDto;
__decorate([
    (0, swagger_1.ApiProperty)({ format: 'date-time', nullable: true, type: String }),
    __metadata("design:type", Object)
], ApiKeyListItemDto.prototype, "revoked_at", void 0);
__decorate([
    (0, swagger_1.ApiProperty)({ format: 'date-time', nullable: true, type: String }),
    __metadata("design:type", Object)
], ApiKeyListItemDto.prototype, "last_used_at", void 0);
__decorate([
    (0, swagger_1.ApiProperty)(),
    __metadata("design:type", Number)
], ApiKeyListItemDto.prototype, "request_count", void 0);
__decorate([
    (0, swagger_1.ApiProperty)({ description: 'Responses with status 400 or above' }),
    __metadata("design:type", Number)
], ApiKeyListItemDto.prototype, "error_count", void 0);
class ApiKeyListDto {
    api_keys;
    pagination;
}
exports.ApiKeyListDto = ApiKeyListDto;
__decorate([
    (0, swagger_1.ApiProperty)({ type: [ApiKeyListItemDto] }),
    __metadata("design:type", Array)
], ApiKeyListDto.prototype, "api_keys", void 0);
__decorate([
    (0, swagger_1.ApiProperty)({ type: pagination_1.PaginationDto }),
    __metadata("design:type", pagination_1.PaginationDto)
], ApiKeyListDto.prototype, "pagination", void 0);
//# sourceMappingURL=api-key-list.dto.js.map