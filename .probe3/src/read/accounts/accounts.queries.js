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
exports.GetAccountHandler = exports.ListAccountsHandler = exports.GetAccount = exports.ListAccounts = void 0;
const common_1 = require("@nestjs/common");
const cqrs_1 = require("@nestjs/cqrs");
const read_model_store_port_1 = require("../../infrastructure/read-model/read-model-store.port");
const accounts_projection_1 = require("../../projections/accounts/accounts.projection");
const domain_error_1 = require("../../shared/domain-error");
class ListAccounts {
    limit;
    offset;
    constructor(limit, offset) {
        this.limit = limit;
        this.offset = offset;
    }
}
exports.ListAccounts = ListAccounts;
class GetAccount {
    accountId;
    constructor(accountId) {
        this.accountId = accountId;
    }
}
exports.GetAccount = GetAccount;
const toDto = (h) => ({ id: h.id, name: h.name, created_at: h.created_at });
let ListAccountsHandler = class ListAccountsHandler {
    store;
    constructor(store) {
        this.store = store;
    }
    async execute({ limit, offset }) {
        const [total, ids] = await Promise.all([this.store.zcard(accounts_projection_1.accountKeys.index), this.store.zrange(accounts_projection_1.accountKeys.index, offset, limit, 'desc')]);
        const records = await Promise.all(ids.map((id) => this.store.hgetall(accounts_projection_1.accountKeys.account(id))));
        return { accounts: records.filter((r) => r.id).map(toDto), pagination: { limit, offset, total } };
    }
};
exports.ListAccountsHandler = ListAccountsHandler;
exports.ListAccountsHandler = ListAccountsHandler = __decorate([
    (0, cqrs_1.QueryHandler)(ListAccounts),
    __param(0, (0, common_1.Inject)(read_model_store_port_1.READ_MODEL_STORE)),
    __metadata("design:paramtypes", [Object])
], ListAccountsHandler);
let GetAccountHandler = class GetAccountHandler {
    store;
    constructor(store) {
        this.store = store;
    }
    async execute({ accountId }) {
        const record = await this.store.hgetall(accounts_projection_1.accountKeys.account(accountId));
        if (!record.id)
            throw new domain_error_1.DomainError('not_found', `Account ${accountId} not found`);
        return toDto(record);
    }
};
exports.GetAccountHandler = GetAccountHandler;
exports.GetAccountHandler = GetAccountHandler = __decorate([
    (0, cqrs_1.QueryHandler)(GetAccount),
    __param(0, (0, common_1.Inject)(read_model_store_port_1.READ_MODEL_STORE)),
    __metadata("design:paramtypes", [Object])
], GetAccountHandler);
//# sourceMappingURL=accounts.queries.js.map