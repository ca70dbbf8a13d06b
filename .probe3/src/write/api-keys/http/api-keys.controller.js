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
exports.ApiKeysWriteController = void 0;
const common_1 = require("@nestjs/common");
const cqrs_1 = require("@nestjs/cqrs");
const swagger_1 = require("@nestjs/swagger");
const request_context_1 = require("../../../platform/http/request-context");
const api_key_handlers_1 = require("../api-key.handlers");
const issue_api_key_request_dto_1 = require("../dto/issue-api-key.request.dto");
let ApiKeysWriteController = class ApiKeysWriteController {
    commands;
    constructor(commands) {
        this.commands = commands;
    }
    issue(body, ctx) {
        const input = { accountId: body.account_id ?? null, name: body.name, scopes: body.scopes, expiresAt: body.expires_at ? new Date(body.expires_at) : null };
        return this.commands.execute(new api_key_handlers_1.IssueApiKey(input, (0, request_context_1.eventMetadata)(ctx)));
    }
    async revoke(id, ctx) {
        await this.commands.execute(new api_key_handlers_1.RevokeApiKey(id, (0, request_context_1.eventMetadata)(ctx)));
    }
};
exports.ApiKeysWriteController = ApiKeysWriteController;
__decorate([
    (0, common_1.Post)(),
    (0, common_1.HttpCode)(201),
    (0, swagger_1.ApiCreatedResponse)({ type: issue_api_key_request_dto_1.IssuedApiKeyDto, description: 'The key is in this response only' }),
    __param(0, (0, common_1.Body)()),
    __param(1, (0, request_context_1.Ctx)()),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [issue_api_key_request_dto_1.IssueApiKeyRequestDto, Object]),
    __metadata("design:returntype", Promise)
], ApiKeysWriteController.prototype, "issue", null);
__decorate([
    (0, common_1.Delete)(':id'),
    (0, common_1.HttpCode)(204),
    (0, swagger_1.ApiNoContentResponse)({ description: 'Revoked; effective at once on every instance' }),
    __param(0, (0, common_1.Param)('id')),
    __param(1, (0, request_context_1.Ctx)()),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [String, Object]),
    __metadata("design:returntype", Promise)
], ApiKeysWriteController.prototype, "revoke", null);
exports.ApiKeysWriteController = ApiKeysWriteController = __decorate([
    (0, swagger_1.ApiTags)('admin'),
    (0, swagger_1.ApiBearerAuth)(),
    (0, common_1.Controller)('v1/api-keys'),
    __metadata("design:paramtypes", [cqrs_1.CommandBus])
], ApiKeysWriteController);
//# sourceMappingURL=api-keys.controller.js.map