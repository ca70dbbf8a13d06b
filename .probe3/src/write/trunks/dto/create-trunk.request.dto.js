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
exports.WSS_URL = exports.CreateTrunkRequestDto = exports.NOT_BLANK = exports.SIP_USERNAME = void 0;
const swagger_1 = require("@nestjs/swagger");
const class_transformer_1 = require("class-transformer");
const class_validator_1 = require("class-validator");
const trunk_types_1 = require("../domain/trunk.types");
const trunk_settings_dto_1 = require("./trunk-settings.dto");
exports.SIP_USERNAME = /^[A-Za-z0-9-]{3,64}$/;
exports.NOT_BLANK = /\S/;
const WSS_URL = { protocols: ['wss'], require_protocol: true, require_tld: false, allow_underscores: true };
exports.WSS_URL = WSS_URL;
class CreateTrunkRequestDto {
    name;
    ai_provider;
    sip_username;
    sip_password;
    openai_api_key;
    elevenlabs_api_key;
    elevenlabs_agent_id;
    custom_endpoint;
    system_prompt;
    vad;
    provider_settings;
    allowed_addresses;
}
exports.CreateTrunkRequestDto = CreateTrunkRequestDto;
__decorate([
    (0, swagger_1.ApiProperty)({ minLength: 1, maxLength: 200, description: 'Unique within the account (case-insensitive, trimmed)' }),
    (0, class_validator_1.IsString)({ message: 'name must be a string' }),
    (0, class_validator_1.Length)(1, 200, { message: 'name must be 1-200 characters' }),
    (0, class_validator_1.Matches)(exports.NOT_BLANK, { message: 'name must not be blank' }),
    __metadata("design:type", String)
], CreateTrunkRequestDto.prototype, "name", void 0);
__decorate([
    (0, swagger_1.ApiProperty)({ enum: trunk_types_1.PROVIDERS }),
    (0, class_validator_1.IsIn)(trunk_types_1.PROVIDERS, { message: 'ai_provider must be openai, elevenlabs or custom' }),
    __metadata("design:type", String)
], CreateTrunkRequestDto.prototype, "ai_provider", void 0);
__decorate([
    (0, swagger_1.ApiProperty)({ pattern: exports.SIP_USERNAME.source, description: '3-64 letters, digits and hyphens; unique across all accounts (case-insensitive)' }),
    (0, class_validator_1.IsString)({ message: 'sip_username must be a string' }),
    (0, class_validator_1.Matches)(exports.SIP_USERNAME, { message: 'sip_username must be 3-64 letters, digits or hyphens', context: { code: 'invalid_sip_username' } }),
    __metadata("design:type", String)
], CreateTrunkRequestDto.prototype, "sip_username", void 0);
__decorate([
    (0, swagger_1.ApiProperty)({ minLength: 8, maxLength: 128, writeOnly: true }),
    (0, class_validator_1.IsString)({ message: 'sip_password must be a string' }),
    (0, class_validator_1.Length)(8, 128, { message: 'sip_password must be 8-128 characters' }),
    __metadata("design:type", String)
], CreateTrunkRequestDto.prototype, "sip_password", void 0);
__decorate([
    (0, swagger_1.ApiPropertyOptional)({ writeOnly: true, description: 'Required when ai_provider is openai' }),
    (0, class_validator_1.IsOptional)(),
    (0, class_validator_1.IsString)({ message: 'openai_api_key must be a string' }),
    (0, class_validator_1.Length)(1, 512, { message: 'openai_api_key must be 1-512 characters' }),
    __metadata("design:type", String)
], CreateTrunkRequestDto.prototype, "openai_api_key", void 0);
__decorate([
    (0, swagger_1.ApiPropertyOptional)({ writeOnly: true, description: 'Required when ai_provider is elevenlabs' }),
    (0, class_validator_1.IsOptional)(),
    (0, class_validator_1.IsString)({ message: 'elevenlabs_api_key must be a string' }),
    (0, class_validator_1.Length)(1, 512, { message: 'elevenlabs_api_key must be 1-512 characters' }),
    __metadata("design:type", String)
], CreateTrunkRequestDto.prototype, "elevenlabs_api_key", void 0);
__decorate([
    (0, swagger_1.ApiPropertyOptional)({ description: 'Required when ai_provider is elevenlabs' }),
    (0, class_validator_1.IsOptional)(),
    (0, class_validator_1.IsString)({ message: 'elevenlabs_agent_id must be a string' }),
    (0, class_validator_1.Length)(1, 128, { message: 'elevenlabs_agent_id must be 1-128 characters' }),
    __metadata("design:type", String)
], CreateTrunkRequestDto.prototype, "elevenlabs_agent_id", void 0);
__decorate([
    (0, swagger_1.ApiPropertyOptional)({ format: 'uri', description: 'Required when ai_provider is custom: an absolute wss:// URL' }),
    (0, class_validator_1.IsOptional)(),
    (0, class_validator_1.IsString)({ message: 'custom_endpoint must be a string' }),
    (0, class_validator_1.MaxLength)(2048, { message: 'custom_endpoint must be at most 2048 characters' }),
    (0, class_validator_1.IsUrl)(WSS_URL, { message: 'custom_endpoint must be an absolute wss:// URL' }),
    __metadata("design:type", String)
], CreateTrunkRequestDto.prototype, "custom_endpoint", void 0);
__decorate([
    (0, swagger_1.ApiPropertyOptional)({ maxLength: 20000, description: 'Sent to the AI agent at the start of each call' }),
    (0, class_validator_1.IsOptional)(),
    (0, class_validator_1.IsString)({ message: 'system_prompt must be a string' }),
    (0, class_validator_1.MaxLength)(20000, { message: 'system_prompt must be at most 20000 characters' }),
    __metadata("design:type", String)
], CreateTrunkRequestDto.prototype, "system_prompt", void 0);
__decorate([
    (0, swagger_1.ApiPropertyOptional)({ type: trunk_settings_dto_1.VadDto }),
    (0, class_validator_1.IsOptional)(),
    (0, class_validator_1.IsObject)({ message: 'vad must be an object' }),
    (0, class_validator_1.ValidateNested)(),
    (0, class_transformer_1.Type)(() => trunk_settings_dto_1.VadDto),
    __metadata("design:type", trunk_settings_dto_1.VadDto)
], CreateTrunkRequestDto.prototype, "vad", void 0);
__decorate([
    (0, swagger_1.ApiPropertyOptional)({ type: trunk_settings_dto_1.ProviderSettingsDto }),
    (0, class_validator_1.IsOptional)(),
    (0, class_validator_1.IsObject)({ message: 'provider_settings must be an object' }),
    (0, class_validator_1.ValidateNested)(),
    (0, class_transformer_1.Type)(() => trunk_settings_dto_1.ProviderSettingsDto),
    __metadata("design:type", trunk_settings_dto_1.ProviderSettingsDto)
], CreateTrunkRequestDto.prototype, "provider_settings", void 0);
__decorate([
    (0, swagger_1.ApiPropertyOptional)({ type: [String], description: 'IPv4/IPv6 addresses or CIDR blocks the carrier may connect from' }),
    (0, class_validator_1.IsOptional)(),
    (0, trunk_settings_dto_1.IsCidrList)(),
    __metadata("design:type", Array)
], CreateTrunkRequestDto.prototype, "allowed_addresses", void 0);
//# sourceMappingURL=create-trunk.request.dto.js.map