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
exports.TrunksReadController = void 0;
const common_1 = require("@nestjs/common");
const cqrs_1 = require("@nestjs/cqrs");
const swagger_1 = require("@nestjs/swagger");
const request_context_1 = require("../../../platform/http/request-context");
const trunk_history_queries_1 = require("../../trunk-history/trunk-history.queries");
const trunk_dto_1 = require("../trunk.dto");
const trunk_queries_1 = require("../trunk.queries");
let TrunksReadController = class TrunksReadController {
    queries;
    constructor(queries) {
        this.queries = queries;
    }
    list(query, ctx) {
        return this.queries.execute(new trunk_queries_1.ListTrunks((0, request_context_1.accountOf)(ctx), query.limit, query.offset, query.status, query.sort === 'created_at' ? 'asc' : 'desc'));
    }
    get(id, query, ctx) {
        if (query.as_of !== undefined)
            return this.queries.execute(new trunk_history_queries_1.GetTrunkAsOf((0, request_context_1.accountOf)(ctx), id, new Date(query.as_of)));
        return this.queries.execute(new trunk_queries_1.GetTrunk((0, request_context_1.accountOf)(ctx), id));
    }
    history(id, query, ctx) {
        return this.queries.execute(new trunk_history_queries_1.GetTrunkHistory((0, request_context_1.accountOf)(ctx), id, query.limit, query.offset));
    }
};
exports.TrunksReadController = TrunksReadController;
__decorate([
    (0, common_1.Get)(),
    (0, swagger_1.ApiOkResponse)({ type: trunk_dto_1.TrunkListDto, description: 'Newest first by default' }),
    __param(0, (0, common_1.Query)()),
    __param(1, (0, request_context_1.Ctx)()),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [trunk_dto_1.ListTrunksQueryDto, Object]),
    __metadata("design:returntype", Promise)
], TrunksReadController.prototype, "list", null);
__decorate([
    (0, common_1.Get)(':id'),
    (0, swagger_1.ApiOkResponse)({ type: trunk_dto_1.TrunkDetailDto, description: 'With as_of: the trunk as it was at that instant' }),
    __param(0, (0, common_1.Param)('id')),
    __param(1, (0, common_1.Query)()),
    __param(2, (0, request_context_1.Ctx)()),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [String, trunk_dto_1.GetTrunkQueryDto, Object]),
    __metadata("design:returntype", Promise)
], TrunksReadController.prototype, "get", null);
__decorate([
    (0, common_1.Get)(':id/events'),
    (0, swagger_1.ApiOkResponse)({ type: trunk_dto_1.TrunkHistoryDto, description: 'The trunk\'s full history for auditors, oldest first, secrets redacted' }),
    __param(0, (0, common_1.Param)('id')),
    __param(1, (0, common_1.Query)()),
    __param(2, (0, request_context_1.Ctx)()),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [String, trunk_dto_1.TrunkHistoryQueryDto, Object]),
    __metadata("design:returntype", Promise)
], TrunksReadController.prototype, "history", null);
exports.TrunksReadController = TrunksReadController = __decorate([
    (0, swagger_1.ApiTags)('trunks'),
    (0, swagger_1.ApiBearerAuth)(),
    (0, common_1.Controller)('v1/trunks'),
    __metadata("design:paramtypes", [cqrs_1.QueryBus])
], TrunksReadController);
//# sourceMappingURL=trunks.controller.js.map