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
exports.TrunksWriteController = void 0;
const common_1 = require("@nestjs/common");
const cqrs_1 = require("@nestjs/cqrs");
const swagger_1 = require("@nestjs/swagger");
const request_context_1 = require("../../../platform/http/request-context");
const create_trunk_handler_1 = require("../create-trunk.handler");
const delete_trunk_handler_1 = require("../delete-trunk.handler");
const create_trunk_request_dto_1 = require("../dto/create-trunk.request.dto");
const trunk_responses_dto_1 = require("../dto/trunk-responses.dto");
const update_trunk_request_dto_1 = require("../dto/update-trunk.request.dto");
const rotate_sip_password_handler_1 = require("../rotate-sip-password.handler");
const update_trunk_handler_1 = require("../update-trunk.handler");
let TrunksWriteController = class TrunksWriteController {
    commands;
    constructor(commands) {
        this.commands = commands;
    }
    create(body, ctx) {
        return this.commands.execute(new create_trunk_handler_1.CreateTrunk((0, request_context_1.accountOf)(ctx), body, (0, request_context_1.eventMetadata)(ctx)));
    }
    update(id, body, ctx) {
        return this.commands.execute(new update_trunk_handler_1.UpdateTrunk(id, (0, request_context_1.accountOf)(ctx), body, (0, request_context_1.eventMetadata)(ctx)));
    }
    rotate(id, ctx) {
        return this.commands.execute(new rotate_sip_password_handler_1.RotateSipPassword(id, (0, request_context_1.accountOf)(ctx), (0, request_context_1.eventMetadata)(ctx)));
    }
    rotateAlias(id, ctx) {
        return this.rotate(id, ctx);
    }
    async remove(id, ctx) {
        await this.commands.execute(new delete_trunk_handler_1.DeleteTrunk(id, (0, request_context_1.accountOf)(ctx), (0, request_context_1.eventMetadata)(ctx)));
    }
};
exports.TrunksWriteController = TrunksWriteController;
__decorate([
    (0, common_1.Post)(),
    (0, common_1.HttpCode)(201),
    (0, swagger_1.ApiCreatedResponse)({ type: trunk_responses_dto_1.TrunkCreatedDto, description: 'Secrets are never returned' }),
    __param(0, (0, common_1.Body)()),
    __param(1, (0, request_context_1.Ctx)()),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [create_trunk_request_dto_1.CreateTrunkRequestDto, Object]),
    __metadata("design:returntype", Promise)
], TrunksWriteController.prototype, "create", null);
__decorate([
    (0, common_1.Patch)(':id'),
    (0, swagger_1.ApiOkResponse)({ type: trunk_responses_dto_1.TrunkUpdatedDto, description: 'Only the included fields change; active calls are not interrupted' }),
    __param(0, (0, common_1.Param)('id')),
    __param(1, (0, common_1.Body)()),
    __param(2, (0, request_context_1.Ctx)()),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [String, update_trunk_request_dto_1.UpdateTrunkRequestDto, Object]),
    __metadata("design:returntype", Promise)
], TrunksWriteController.prototype, "update", null);
__decorate([
    (0, common_1.Post)(':id/rotate-password'),
    (0, common_1.HttpCode)(200),
    (0, swagger_1.ApiOkResponse)({ type: trunk_responses_dto_1.PasswordRotatedDto, description: 'The old password is invalid at once; the new one is returned only here' }),
    __param(0, (0, common_1.Param)('id')),
    __param(1, (0, request_context_1.Ctx)()),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [String, Object]),
    __metadata("design:returntype", Promise)
], TrunksWriteController.prototype, "rotate", null);
__decorate([
    (0, common_1.Post)(':id/rotate-sip-password'),
    (0, common_1.HttpCode)(200),
    (0, swagger_1.ApiOperation)({ summary: 'Same as rotate-password (both paths appear in the spec)' }),
    (0, swagger_1.ApiOkResponse)({ type: trunk_responses_dto_1.PasswordRotatedDto }),
    __param(0, (0, common_1.Param)('id')),
    __param(1, (0, request_context_1.Ctx)()),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [String, Object]),
    __metadata("design:returntype", Promise)
], TrunksWriteController.prototype, "rotateAlias", null);
__decorate([
    (0, common_1.Delete)(':id'),
    (0, common_1.HttpCode)(204),
    (0, swagger_1.ApiNoContentResponse)({ description: 'The trunk disappears from reads; its name and sip_username are freed; its secrets become unrecoverable' }),
    __param(0, (0, common_1.Param)('id')),
    __param(1, (0, request_context_1.Ctx)()),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [String, Object]),
    __metadata("design:returntype", Promise)
], TrunksWriteController.prototype, "remove", null);
exports.TrunksWriteController = TrunksWriteController = __decorate([
    (0, swagger_1.ApiTags)('trunks'),
    (0, swagger_1.ApiBearerAuth)(),
    (0, common_1.Controller)('v1/trunks'),
    __metadata("design:paramtypes", [cqrs_1.CommandBus])
], TrunksWriteController);
//# sourceMappingURL=trunks.controller.js.map