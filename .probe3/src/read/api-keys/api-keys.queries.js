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
exports.ListApiKeysHandler = exports.ListApiKeys = void 0;
const common_1 = require("@nestjs/common");
const cqrs_1 = require("@nestjs/cqrs");
const rate_limiter_port_1 = require("../../infrastructure/rate-limit/rate-limiter.port");
const read_model_store_port_1 = require("../../infrastructure/read-model/read-model-store.port");
const api_keys_projection_1 = require("../../projections/api-keys/api-keys.projection");
class ListApiKeys {
    accountId;
    limit;
    offset;
    constructor(accountId, limit, offset) {
        this.accountId = accountId;
        this.limit = limit;
        this.offset = offset;
    }
}
exports.ListApiKeys = ListApiKeys;
let ListApiKeysHandler = class ListApiKeysHandler {
    store;
    usage;
    constructor(store, usage) {
        this.store = store;
        this.usage = usage;
    }
    async execute({ accountId, limit, offset }) {
        const index = api_keys_projection_1.apiKeyKeys.ofAccount(accountId);
        const [total, ids] = await Promise.all([this.store.zcard(index), this.store.zrange(index, offset, limit, 'desc')]);
        const [records, usage] = await Promise.all([Promise.all(ids.map((id) => this.store.hgetall(api_keys_projection_1.apiKeyKeys.byId(id)))), this.usage.get(ids)]);
        const api_keys = records
            .filter((r) => r.id)
            .map((r) => {
            const used = usage.get(r.id);
            return {
                id: r.id,
                name: r.name,
                account_id: r.account_id || null,
                scopes: r.scopes.split(','),
                environment: r.environment,
                key_hint: r.key_hint,
                created_at: r.created_at,
                expires_at: r.expires_at || null,
                revoked_at: r.revoked_at || null,
                last_used_at: used?.lastUsedAt?.toISOString() ?? null,
                request_count: used?.requestCount ?? 0,
                error_count: used?.errorCount ?? 0,
            };
        });
        return { api_keys, pagination: { limit, offset, total } };
    }
};
exports.ListApiKeysHandler = ListApiKeysHandler;
exports.ListApiKeysHandler = ListApiKeysHandler = __decorate([
    (0, cqrs_1.QueryHandler)(ListApiKeys),
    __param(0, (0, common_1.Inject)(read_model_store_port_1.READ_MODEL_STORE)),
    __param(1, (0, common_1.Inject)(rate_limiter_port_1.KEY_USAGE_STORE)),
    __metadata("design:paramtypes", [Object, Object])
], ListApiKeysHandler);
//# sourceMappingURL=api-keys.queries.js.map