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
exports.ApiKeysReadController = void 0;
const common_1 = require("@nestjs/common");
const cqrs_1 = require("@nestjs/cqrs");
const swagger_1 = require("@nestjs/swagger");
const api_keys_queries_1 = require("../api-keys.queries");
const api_key_list_dto_1 = require("./api-key-list.dto");
let ApiKeysReadController = class ApiKeysReadController {
    queries;
    constructor(queries) {
        this.queries = queries;
    }
    list(query) {
        return this.queries.execute(new api_keys_queries_1.ListApiKeys(query.account_id ?? null, query.limit, query.offset));
    }
};
exports.ApiKeysReadController = ApiKeysReadController;
__decorate([
    (0, common_1.Get)(),
    (0, swagger_1.ApiOkResponse)({ type: api_key_list_dto_1.ApiKeyListDto, description: 'Newest first, with usage counters' }),
    __param(0, (0, common_1.Query)()),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [api_key_list_dto_1.ListApiKeysQueryDto]),
    __metadata("design:returntype", Promise)
], ApiKeysReadController.prototype, "list", null);
exports.ApiKeysReadController = ApiKeysReadController = __decorate([
    (0, swagger_1.ApiTags)('admin'),
    (0, swagger_1.ApiBearerAuth)(),
    (0, common_1.Controller)('v1/api-keys'),
    __metadata("design:paramtypes", [cqrs_1.QueryBus])
], ApiKeysReadController);
//# sourceMappingURL=api-keys.controller.js.map