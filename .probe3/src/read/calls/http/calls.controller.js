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
exports.CallsController = void 0;
const common_1 = require("@nestjs/common");
const cqrs_1 = require("@nestjs/cqrs");
const swagger_1 = require("@nestjs/swagger");
const request_context_1 = require("../../../platform/http/request-context");
const call_dto_1 = require("../call.dto");
const calls_queries_1 = require("../calls.queries");
let CallsController = class CallsController {
    queries;
    constructor(queries) {
        this.queries = queries;
    }
    list(query, ctx) {
        return this.queries.execute(new calls_queries_1.ListCalls((0, request_context_1.accountOf)(ctx), query));
    }
    get(id, ctx) {
        return this.queries.execute(new calls_queries_1.GetCall((0, request_context_1.accountOf)(ctx), id));
    }
};
exports.CallsController = CallsController;
__decorate([
    (0, common_1.Get)(),
    (0, swagger_1.ApiOkResponse)({ type: call_dto_1.CallListDto, description: 'Newest first. Offset pagination with the exact total, or cursor pagination (next_cursor) at constant cost.' }),
    __param(0, (0, common_1.Query)()),
    __param(1, (0, request_context_1.Ctx)()),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [call_dto_1.ListCallsQueryDto, Object]),
    __metadata("design:returntype", Promise)
], CallsController.prototype, "list", null);
__decorate([
    (0, common_1.Get)(':id'),
    (0, swagger_1.ApiOkResponse)({ type: call_dto_1.CallDetailDto }),
    __param(0, (0, common_1.Param)('id')),
    __param(1, (0, request_context_1.Ctx)()),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [String, Object]),
    __metadata("design:returntype", Promise)
], CallsController.prototype, "get", null);
exports.CallsController = CallsController = __decorate([
    (0, swagger_1.ApiTags)('calls'),
    (0, swagger_1.ApiBearerAuth)(),
    (0, common_1.Controller)('v1/calls'),
    __metadata("design:paramtypes", [cqrs_1.QueryBus])
], CallsController);
//# sourceMappingURL=calls.controller.js.map