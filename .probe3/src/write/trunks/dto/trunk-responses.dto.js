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
exports.PasswordRotatedDto = exports.TrunkUpdatedDto = exports.TrunkCreatedDto = void 0;
const swagger_1 = require("@nestjs/swagger");
const trunk_types_1 = require("../domain/trunk.types");
class TrunkCreatedDto {
    id;
    name;
    status;
    ai_provider;
    sip_username;
    sip_endpoint;
    created_at;
}
exports.TrunkCreatedDto = TrunkCreatedDto;
__decorate([
    (0, swagger_1.ApiProperty)({ example: 'conn_…' }),
    __metadata("design:type", String)
], TrunkCreatedDto.prototype, "id", void 0);
__decorate([
    (0, swagger_1.ApiProperty)(),
    __metadata("design:type", String)
], TrunkCreatedDto.prototype, "name", void 0);
__decorate([
    (0, swagger_1.ApiProperty)({ enum: trunk_types_1.TRUNK_STATUSES }),
    __metadata("design:type", String)
], TrunkCreatedDto.prototype, "status", void 0);
__decorate([
    (0, swagger_1.ApiProperty)({ enum: trunk_types_1.PROVIDERS }),
    __metadata("design:type", String)
], TrunkCreatedDto.prototype, "ai_provider", void 0);
__decorate([
    (0, swagger_1.ApiProperty)(),
    __metadata("design:type", String)
], TrunkCreatedDto.prototype, "sip_username", void 0);
__decorate([
    (0, swagger_1.ApiProperty)({ description: '<sip_username>@<SIP_DOMAIN>: configure this at the carrier' }),
    __metadata("design:type", String)
], TrunkCreatedDto.prototype, "sip_endpoint", void 0);
__decorate([
    (0, swagger_1.ApiProperty)({ format: 'date-time' }),
    __metadata("design:type", String)
], TrunkCreatedDto.prototype, "created_at", void 0);
class TrunkUpdatedDto {
    id;
    name;
    status;
    updated_at;
}
exports.TrunkUpdatedDto = TrunkUpdatedDto;
__decorate([
    (0, swagger_1.ApiProperty)(),
    __metadata("design:type", String)
], TrunkUpdatedDto.prototype, "id", void 0);
__decorate([
    (0, swagger_1.ApiProperty)(),
    __metadata("design:type", String)
], TrunkUpdatedDto.prototype, "name", void 0);
__decorate([
    (0, swagger_1.ApiProperty)({ enum: trunk_types_1.TRUNK_STATUSES }),
    __metadata("design:type", String)
], TrunkUpdatedDto.prototype, "status", void 0);
__decorate([
    (0, swagger_1.ApiProperty)({ format: 'date-time' }),
    __metadata("design:type", String)
], TrunkUpdatedDto.prototype, "updated_at", void 0);
class PasswordRotatedDto {
    id;
    sip_username;
    sip_password;
    rotated_at;
}
exports.PasswordRotatedDto = PasswordRotatedDto;
__decorate([
    (0, swagger_1.ApiProperty)(),
    __metadata("design:type", String)
], PasswordRotatedDto.prototype, "id", void 0);
__decorate([
    (0, swagger_1.ApiProperty)({ description: 'Unchanged' }),
    __metadata("design:type", String)
], PasswordRotatedDto.prototype, "sip_username", void 0);
__decorate([
    (0, swagger_1.ApiProperty)({ description: 'The new password, generated server-side (32 characters); returned only here' }),
    __metadata("design:type", String)
], PasswordRotatedDto.prototype, "sip_password", void 0);
__decorate([
    (0, swagger_1.ApiProperty)({ format: 'date-time' }),
    __metadata("design:type", String)
], PasswordRotatedDto.prototype, "rotated_at", void 0);
//# sourceMappingURL=trunk-responses.dto.js.map