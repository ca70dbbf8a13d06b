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
exports.ProviderSettingsDto = exports.VadDto = void 0;
exports.isCidr = isCidr;
exports.IsCidrList = IsCidrList;
const node_net_1 = require("node:net");
const swagger_1 = require("@nestjs/swagger");
const class_validator_1 = require("class-validator");
/** Server VAD parameters, named as OpenAI's realtime API names them. */
class VadDto {
    threshold;
    prefix_padding_ms;
    silence_duration_ms;
}
exports.VadDto = VadDto;
__decorate([
    (0, swagger_1.ApiPropertyOptional)({ minimum: 0, maximum: 1, description: 'Speech probability threshold' }),
    (0, class_validator_1.IsOptional)(),
    (0, class_validator_1.IsNumber)({ allowNaN: false, allowInfinity: false }, { message: 'vad.threshold must be a number from 0 to 1' }),
    (0, class_validator_1.Min)(0, { message: 'vad.threshold must be a number from 0 to 1' }),
    (0, class_validator_1.Max)(1, { message: 'vad.threshold must be a number from 0 to 1' }),
    __metadata("design:type", Number)
], VadDto.prototype, "threshold", void 0);
__decorate([
    (0, swagger_1.ApiPropertyOptional)({ minimum: 0, maximum: 5000 }),
    (0, class_validator_1.IsOptional)(),
    (0, class_validator_1.IsInt)({ message: 'vad.prefix_padding_ms must be an integer from 0 to 5000' }),
    (0, class_validator_1.Min)(0, { message: 'vad.prefix_padding_ms must be an integer from 0 to 5000' }),
    (0, class_validator_1.Max)(5000, { message: 'vad.prefix_padding_ms must be an integer from 0 to 5000' }),
    __metadata("design:type", Number)
], VadDto.prototype, "prefix_padding_ms", void 0);
__decorate([
    (0, swagger_1.ApiPropertyOptional)({ minimum: 0, maximum: 10000 }),
    (0, class_validator_1.IsOptional)(),
    (0, class_validator_1.IsInt)({ message: 'vad.silence_duration_ms must be an integer from 0 to 10000' }),
    (0, class_validator_1.Min)(0, { message: 'vad.silence_duration_ms must be an integer from 0 to 10000' }),
    (0, class_validator_1.Max)(10000, { message: 'vad.silence_duration_ms must be an integer from 0 to 10000' }),
    __metadata("design:type", Number)
], VadDto.prototype, "silence_duration_ms", void 0);
class ProviderSettingsDto {
    model;
    voice;
}
exports.ProviderSettingsDto = ProviderSettingsDto;
__decorate([
    (0, swagger_1.ApiPropertyOptional)({ maxLength: 100, description: 'Model name, e.g. a realtime model' }),
    (0, class_validator_1.IsOptional)(),
    (0, class_validator_1.IsString)({ message: 'provider_settings.model must be a string' }),
    (0, class_validator_1.Length)(1, 100, { message: 'provider_settings.model must be 1-100 characters' }),
    __metadata("design:type", String)
], ProviderSettingsDto.prototype, "model", void 0);
__decorate([
    (0, swagger_1.ApiPropertyOptional)({ maxLength: 100 }),
    (0, class_validator_1.IsOptional)(),
    (0, class_validator_1.IsString)({ message: 'provider_settings.voice must be a string' }),
    (0, class_validator_1.Length)(1, 100, { message: 'provider_settings.voice must be 1-100 characters' }),
    __metadata("design:type", String)
], ProviderSettingsDto.prototype, "voice", void 0);
/** An IPv4 or IPv6 address or CIDR block: `203.0.113.0/24`, `2001:db8::/32`, `198.51.100.7`. */
function isCidr(value) {
    if (typeof value !== 'string' || value.length > 64)
        return false;
    const [address, prefix, extra] = value.split('/');
    if (extra !== undefined)
        return false;
    const family = (0, node_net_1.isIP)(address);
    if (family === 0)
        return false;
    if (prefix === undefined)
        return true;
    if (!/^\d{1,3}$/.test(prefix))
        return false;
    return Number(prefix) <= (family === 4 ? 32 : 128);
}
function IsCidrList(options) {
    return (target, propertyName) => (0, class_validator_1.registerDecorator)({
        name: 'isCidrList',
        target: target.constructor,
        propertyName,
        options,
        validator: {
            validate: (value) => Array.isArray(value) && value.length <= 100 && value.every(isCidr),
            defaultMessage: () => `${propertyName} must be a list of at most 100 IPv4/IPv6 addresses or CIDR blocks`,
        },
    });
}
//# sourceMappingURL=trunk-settings.dto.js.map