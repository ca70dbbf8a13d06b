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
exports.AccountsReadController = void 0;
const common_1 = require("@nestjs/common");
const cqrs_1 = require("@nestjs/cqrs");
const swagger_1 = require("@nestjs/swagger");
const pagination_1 = require("../../../platform/http/pagination");
const create_account_request_dto_1 = require("../../../write/accounts/dto/create-account.request.dto");
const accounts_queries_1 = require("../accounts.queries");
class AccountListDto {
    accounts;
    pagination;
}
__decorate([
    (0, swagger_1.ApiProperty)({ type: [create_account_request_dto_1.AccountDto] }),
    __metadata("design:type", Array)
], AccountListDto.prototype, "accounts", void 0);
__decorate([
    (0, swagger_1.ApiProperty)({ type: pagination_1.PaginationDto }),
    __metadata("design:type", pagination_1.PaginationDto)
], AccountListDto.prototype, "pagination", void 0);
let AccountsReadController = class AccountsReadController {
    queries;
    constructor(queries) {
        this.queries = queries;
    }
    list(query) {
        return this.queries.execute(new accounts_queries_1.ListAccounts(query.limit, query.offset));
    }
    get(id) {
        return this.queries.execute(new accounts_queries_1.GetAccount(id));
    }
};
exports.AccountsReadController = AccountsReadController;
__decorate([
    (0, common_1.Get)(),
    (0, swagger_1.ApiOkResponse)({ type: AccountListDto, description: 'Newest first' }),
    __param(0, (0, common_1.Query)()),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [pagination_1.PaginationQueryDto]),
    __metadata("design:returntype", Promise)
], AccountsReadController.prototype, "list", null);
__decorate([
    (0, common_1.Get)(':id'),
    (0, swagger_1.ApiOkResponse)({ type: create_account_request_dto_1.AccountDto }),
    __param(0, (0, common_1.Param)('id')),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [String]),
    __metadata("design:returntype", Promise)
], AccountsReadController.prototype, "get", null);
exports.AccountsReadController = AccountsReadController = __decorate([
    (0, swagger_1.ApiTags)('admin'),
    (0, swagger_1.ApiBearerAuth)(),
    (0, common_1.Controller)('v1/accounts'),
    __metadata("design:paramtypes", [cqrs_1.QueryBus])
], AccountsReadController);
//# sourceMappingURL=accounts.controller.js.map