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
var __param = (this && this.__param) || function (paramIndex, decorator) {
    return function (target, key) { decorator(target, key, paramIndex); }
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.GatewayController = void 0;
const common_1 = require("@nestjs/common");
const cqrs_1 = require("@nestjs/cqrs");
const swagger_1 = require("@nestjs/swagger");
const request_context_1 = require("../../../platform/http/request-context");
const gateway_queries_1 = require("../gateway.queries");
class GatewayTrunkDto {
    trunk_id;
    account_id;
    sip_username;
    status;
    ai_provider;
    provider_settings;
    system_prompt;
    allowed_addresses;
    elevenlabs_agent_id;
    custom_endpoint;
    ha1;
}
__decorate([
    (0, swagger_1.ApiProperty)(),
    __metadata("design:type", String)
], GatewayTrunkDto.prototype, "trunk_id", void 0);
__decorate([
    (0, swagger_1.ApiProperty)(),
    __metadata("design:type", String)
], GatewayTrunkDto.prototype, "account_id", void 0);
__decorate([
    (0, swagger_1.ApiProperty)(),
    __metadata("design:type", String)
], GatewayTrunkDto.prototype, "sip_username", void 0);
__decorate([
    (0, swagger_1.ApiProperty)({ enum: ['active', 'inactive', 'error', 'deleted'], description: 'Route calls only when active' }),
    __metadata("design:type", String)
], GatewayTrunkDto.prototype, "status", void 0);
__decorate([
    (0, swagger_1.ApiProperty)(),
    __metadata("design:type", String)
], GatewayTrunkDto.prototype, "ai_provider", void 0);
__decorate([
    (0, swagger_1.ApiProperty)({ nullable: true, type: Object }),
    __metadata("design:type", Object)
], GatewayTrunkDto.prototype, "provider_settings", void 0);
__decorate([
    (0, swagger_1.ApiProperty)({ nullable: true, type: String }),
    __metadata("design:type", Object)
], GatewayTrunkDto.prototype, "system_prompt", void 0);
__decorate([
    (0, swagger_1.ApiProperty)({ nullable: true, type: [String] }),
    __metadata("design:type", Object)
], GatewayTrunkDto.prototype, "allowed_addresses", void 0);
__decorate([
    (0, swagger_1.ApiProperty)({ nullable: true, type: String }),
    __metadata("design:type", Object)
], GatewayTrunkDto.prototype, "elevenlabs_agent_id", void 0);
__decorate([
    (0, swagger_1.ApiProperty)({ nullable: true, type: String }),
    __metadata("design:type", Object)
], GatewayTrunkDto.prototype, "custom_endpoint", void 0);
__decorate([
    (0, swagger_1.ApiProperty)({ nullable: true, type: String, description: 'MD5(sip_username:SIP_DOMAIN:password) for SIP digest authentication; null for deleted trunks' }),
    __metadata("design:type", Object)
], GatewayTrunkDto.prototype, "ha1", void 0);
let GatewayController = class GatewayController {
    queries;
    constructor(queries) {
        this.queries = queries;
    }
    lookup(sipUsername, ctx) {
        return this.queries.execute(new gateway_queries_1.LookupGatewayTrunk((0, request_context_1.accountOf)(ctx), sipUsername));
    }
};
exports.GatewayController = GatewayController;
__decorate([
    (0, common_1.Get)(':sip_username'),
    (0, swagger_1.ApiOkResponse)({ type: GatewayTrunkDto, description: 'Needs a key with the ingest scope; reflects a password rotation at once' }),
    __param(0, (0, common_1.Param)('sip_username')),
    __param(1, (0, request_context_1.Ctx)()),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [String, Object]),
    __metadata("design:returntype", Promise)
], GatewayController.prototype, "lookup", null);
exports.GatewayController = GatewayController = __decorate([
    (0, swagger_1.ApiTags)('gateway'),
    (0, swagger_1.ApiBearerAuth)(),
    (0, common_1.Controller)('v1/gateway/trunks'),
    __metadata("design:paramtypes", [cqrs_1.QueryBus])
], GatewayController);
//# sourceMappingURL=gateway.controller.js.map