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
exports.IssuedApiKeyDto = exports.ApiKeyDto = exports.IssueApiKeyRequestDto = void 0;
const swagger_1 = require("@nestjs/swagger");
const class_validator_1 = require("class-validator");
const api_key_decider_1 = require("../domain/api-key.decider");
class IssueApiKeyRequestDto {
    account_id;
    name;
    scopes;
    expires_at;
}
exports.IssueApiKeyRequestDto = IssueApiKeyRequestDto;
__decorate([
    (0, swagger_1.ApiPropertyOptional)({ description: 'Account the key acts for. Omit only for keys whose scopes are ["admin"].' }),
    (0, class_validator_1.IsOptional)(),
    (0, class_validator_1.IsString)({ message: 'account_id must be a string' }),
    (0, class_validator_1.Matches)(/^acct_[A-Za-z0-9]{1,64}$/, { message: 'account_id must be an account id (acct_…)' }),
    __metadata("design:type", String)
], IssueApiKeyRequestDto.prototype, "account_id", void 0);
__decorate([
    (0, swagger_1.ApiProperty)({ minLength: 1, maxLength: 200 }),
    (0, class_validator_1.IsString)({ message: 'name must be a string' }),
    (0, class_validator_1.Length)(1, 200, { message: 'name must be 1-200 characters' }),
    __metadata("design:type", String)
], IssueApiKeyRequestDto.prototype, "name", void 0);
__decorate([
    (0, swagger_1.ApiProperty)({ enum: api_key_decider_1.SCOPES, isArray: true, description: 'full: everything of its account; read: GET only; ingest: /v1/ingest and /v1/gateway; admin: accounts and keys' }),
    (0, class_validator_1.IsArray)({ message: 'scopes must be an array of full, read, ingest, admin' }),
    (0, class_validator_1.ArrayNotEmpty)({ message: 'scopes must name at least one scope' }),
    (0, class_validator_1.ArrayMaxSize)(4, { message: 'scopes has at most 4 entries' }),
    (0, class_validator_1.IsIn)(api_key_decider_1.SCOPES, { each: true, message: 'scopes entries must be full, read, ingest or admin' }),
    __metadata("design:type", Array)
], IssueApiKeyRequestDto.prototype, "scopes", void 0);
__decorate([
    (0, swagger_1.ApiPropertyOptional)({ format: 'date-time', description: 'After this instant the key fails authentication' }),
    (0, class_validator_1.IsOptional)(),
    (0, class_validator_1.IsISO8601)({ strict: true, strictSeparator: true }, { message: 'expires_at must be an ISO 8601 instant' }),
    __metadata("design:type", String)
], IssueApiKeyRequestDto.prototype, "expires_at", void 0);
class ApiKeyDto {
    id;
    name;
    account_id;
    scopes;
    environment;
    key_hint;
    created_at;
    expires_at;
}
exports.ApiKeyDto = ApiKeyDto;
__decorate([
    (0, swagger_1.ApiProperty)({ example: 'key_…' }),
    __metadata("design:type", String)
], ApiKeyDto.prototype, "id", void 0);
__decorate([
    (0, swagger_1.ApiProperty)(),
    __metadata("design:type", String)
], ApiKeyDto.prototype, "name", void 0);
__decorate([
    (0, swagger_1.ApiProperty)({ nullable: true, type: String }),
    __metadata("design:type", Object)
], ApiKeyDto.prototype, "account_id", void 0);
__decorate([
    (0, swagger_1.ApiProperty)({ enum: api_key_decider_1.SCOPES, isArray: true }),
    __metadata("design:type", Array)
], ApiKeyDto.prototype, "scopes", void 0);
__decorate([
    (0, swagger_1.ApiProperty)({ enum: ['live', 'test'] }),
    __metadata("design:type", String)
], ApiKeyDto.prototype, "environment", void 0);
__decorate([
    (0, swagger_1.ApiProperty)({ description: 'Last 4 characters of the key' }),
    __metadata("design:type", String)
], ApiKeyDto.prototype, "key_hint", void 0);
__decorate([
    (0, swagger_1.ApiProperty)({ format: 'date-time' }),
    __metadata("design:type", String)
], ApiKeyDto.prototype, "created_at", void 0);
__decorate([
    (0, swagger_1.ApiProperty)({ format: 'date-time', nullable: true, type: String }),
    __metadata("design:type", Object)
], ApiKeyDto.prototype, "expires_at", void 0);
class IssuedApiKeyDto extends ApiKeyDto {
    key;
}
exports.IssuedApiKeyDto = IssuedApiKeyDto;
__decorate([
    (0, swagger_1.ApiProperty)({ description: 'The key. Shown once, here; only its hash is kept.' }),
    __metadata("design:type", String)
], IssuedApiKeyDto.prototype, "key", void 0);
//# sourceMappingURL=issue-api-key.request.dto.js.map