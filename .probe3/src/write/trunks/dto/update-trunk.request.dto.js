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
exports.UpdateTrunkRequestDto = void 0;
const swagger_1 = require("@nestjs/swagger");
const class_transformer_1 = require("class-transformer");
const class_validator_1 = require("class-validator");
const create_trunk_request_dto_1 = require("./create-trunk.request.dto");
const trunk_settings_dto_1 = require("./trunk-settings.dto");
/** Every field optional; only the included ones change. `null` clears a setting. */
class UpdateTrunkRequestDto {
    name;
    status;
    openai_api_key;
    elevenlabs_api_key;
    elevenlabs_agent_id;
    custom_endpoint;
    system_prompt;
    vad;
    provider_settings;
    allowed_addresses;
}
exports.UpdateTrunkRequestDto = UpdateTrunkRequestDto;
__decorate([
    (0, swagger_1.ApiPropertyOptional)({ minLength: 1, maxLength: 200 }),
    (0, class_validator_1.ValidateIf)((o) => o.name !== undefined),
    (0, class_validator_1.IsString)({ message: 'name must be a string' }),
    (0, class_validator_1.Length)(1, 200, { message: 'name must be 1-200 characters' }),
    (0, class_validator_1.Matches)(create_trunk_request_dto_1.NOT_BLANK, { message: 'name must not be blank' }),
    __metadata("design:type", String)
], UpdateTrunkRequestDto.prototype, "name", void 0);
__decorate([
    (0, swagger_1.ApiPropertyOptional)({ enum: ['active', 'inactive'], description: 'Enable or disable the trunk (active calls are not interrupted)' }),
    (0, class_validator_1.ValidateIf)((o) => o.status !== undefined),
    (0, class_validator_1.IsIn)(['active', 'inactive'], { message: 'status must be active or inactive' }),
    __metadata("design:type", String)
], UpdateTrunkRequestDto.prototype, "status", void 0);
__decorate([
    (0, swagger_1.ApiPropertyOptional)({ writeOnly: true, description: 'openai trunks' }),
    (0, class_validator_1.ValidateIf)((o) => o.openai_api_key !== undefined),
    (0, class_validator_1.IsString)({ message: 'openai_api_key must be a string' }),
    (0, class_validator_1.Length)(1, 512, { message: 'openai_api_key must be 1-512 characters' }),
    __metadata("design:type", String)
], UpdateTrunkRequestDto.prototype, "openai_api_key", void 0);
__decorate([
    (0, swagger_1.ApiPropertyOptional)({ writeOnly: true, description: 'elevenlabs trunks' }),
    (0, class_validator_1.ValidateIf)((o) => o.elevenlabs_api_key !== undefined),
    (0, class_validator_1.IsString)({ message: 'elevenlabs_api_key must be a string' }),
    (0, class_validator_1.Length)(1, 512, { message: 'elevenlabs_api_key must be 1-512 characters' }),
    __metadata("design:type", String)
], UpdateTrunkRequestDto.prototype, "elevenlabs_api_key", void 0);
__decorate([
    (0, swagger_1.ApiPropertyOptional)({ description: 'elevenlabs trunks' }),
    (0, class_validator_1.ValidateIf)((o) => o.elevenlabs_agent_id !== undefined),
    (0, class_validator_1.IsString)({ message: 'elevenlabs_agent_id must be a string' }),
    (0, class_validator_1.Length)(1, 128, { message: 'elevenlabs_agent_id must be 1-128 characters' }),
    __metadata("design:type", String)
], UpdateTrunkRequestDto.prototype, "elevenlabs_agent_id", void 0);
__decorate([
    (0, swagger_1.ApiPropertyOptional)({ format: 'uri', description: 'custom trunks: an absolute wss:// URL' }),
    (0, class_validator_1.ValidateIf)((o) => o.custom_endpoint !== undefined),
    (0, class_validator_1.IsString)({ message: 'custom_endpoint must be a string' }),
    (0, class_validator_1.MaxLength)(2048, { message: 'custom_endpoint must be at most 2048 characters' }),
    (0, class_validator_1.IsUrl)(create_trunk_request_dto_1.WSS_URL, { message: 'custom_endpoint must be an absolute wss:// URL' }),
    __metadata("design:type", String)
], UpdateTrunkRequestDto.prototype, "custom_endpoint", void 0);
__decorate([
    (0, swagger_1.ApiPropertyOptional)({ maxLength: 20000, nullable: true }),
    (0, class_validator_1.IsOptional)(),
    (0, class_validator_1.IsString)({ message: 'system_prompt must be a string or null' }),
    (0, class_validator_1.MaxLength)(20000, { message: 'system_prompt must be at most 20000 characters' }),
    __metadata("design:type", Object)
], UpdateTrunkRequestDto.prototype, "system_prompt", void 0);
__decorate([
    (0, swagger_1.ApiPropertyOptional)({ type: trunk_settings_dto_1.VadDto, nullable: true }),
    (0, class_validator_1.IsOptional)(),
    (0, class_validator_1.IsObject)({ message: 'vad must be an object or null' }),
    (0, class_validator_1.ValidateNested)(),
    (0, class_transformer_1.Type)(() => trunk_settings_dto_1.VadDto),
    __metadata("design:type", Object)
], UpdateTrunkRequestDto.prototype, "vad", void 0);
__decorate([
    (0, swagger_1.ApiPropertyOptional)({ type: trunk_settings_dto_1.ProviderSettingsDto, nullable: true }),
    (0, class_validator_1.IsOptional)(),
    (0, class_validator_1.IsObject)({ message: 'provider_settings must be an object or null' }),
    (0, class_validator_1.ValidateNested)(),
    (0, class_transformer_1.Type)(() => trunk_settings_dto_1.ProviderSettingsDto),
    __metadata("design:type", Object)
], UpdateTrunkRequestDto.prototype, "provider_settings", void 0);
__decorate([
    (0, swagger_1.ApiPropertyOptional)({ type: [String], nullable: true }),
    (0, class_validator_1.IsOptional)(),
    (0, trunk_settings_dto_1.IsCidrList)(),
    __metadata("design:type", Object)
], UpdateTrunkRequestDto.prototype, "allowed_addresses", void 0);
//# sourceMappingURL=update-trunk.request.dto.js.map