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
exports.AccountDto = exports.CreateAccountRequestDto = void 0;
const swagger_1 = require("@nestjs/swagger");
const class_validator_1 = require("class-validator");
class CreateAccountRequestDto {
    name;
}
exports.CreateAccountRequestDto = CreateAccountRequestDto;
__decorate([
    (0, swagger_1.ApiProperty)({ minLength: 1, maxLength: 200, description: 'Display name of the account' }),
    (0, class_validator_1.IsString)({ message: 'name must be a string' }),
    (0, class_validator_1.Length)(1, 200, { message: 'name must be 1-200 characters' }),
    __metadata("design:type", String)
], CreateAccountRequestDto.prototype, "name", void 0);
class AccountDto {
    id;
    name;
    created_at;
}
exports.AccountDto = AccountDto;
__decorate([
    (0, swagger_1.ApiProperty)({ example: 'acct_…' }),
    __metadata("design:type", String)
], AccountDto.prototype, "id", void 0);
__decorate([
    (0, swagger_1.ApiProperty)(),
    __metadata("design:type", String)
], AccountDto.prototype, "name", void 0);
__decorate([
    (0, swagger_1.ApiProperty)({ format: 'date-time' }),
    __metadata("design:type", String)
], AccountDto.prototype, "created_at", void 0);
//# sourceMappingURL=create-account.request.dto.js.map