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
exports.AccountsWriteController = void 0;
const common_1 = require("@nestjs/common");
const cqrs_1 = require("@nestjs/cqrs");
const swagger_1 = require("@nestjs/swagger");
const request_context_1 = require("../../../platform/http/request-context");
const create_account_handler_1 = require("../create-account.handler");
const create_account_request_dto_1 = require("../dto/create-account.request.dto");
let AccountsWriteController = class AccountsWriteController {
    commands;
    constructor(commands) {
        this.commands = commands;
    }
    create(body, ctx) {
        return this.commands.execute(new create_account_handler_1.CreateAccount(body.name, (0, request_context_1.eventMetadata)(ctx)));
    }
};
exports.AccountsWriteController = AccountsWriteController;
__decorate([
    (0, common_1.Post)(),
    (0, common_1.HttpCode)(201),
    (0, swagger_1.ApiCreatedResponse)({ type: create_account_request_dto_1.AccountDto, description: 'Needs a key with the admin scope' }),
    __param(0, (0, common_1.Body)()),
    __param(1, (0, request_context_1.Ctx)()),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [create_account_request_dto_1.CreateAccountRequestDto, Object]),
    __metadata("design:returntype", Promise)
], AccountsWriteController.prototype, "create", null);
exports.AccountsWriteController = AccountsWriteController = __decorate([
    (0, swagger_1.ApiTags)('admin'),
    (0, swagger_1.ApiBearerAuth)(),
    (0, common_1.Controller)('v1/accounts'),
    __metadata("design:paramtypes", [cqrs_1.CommandBus])
], AccountsWriteController);
//# sourceMappingURL=accounts.controller.js.map