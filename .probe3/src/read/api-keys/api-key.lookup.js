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
exports.ApiKeyLookup = void 0;
exports.credentialFrom = credentialFrom;
const common_1 = require("@nestjs/common");
const read_model_store_port_1 = require("../../infrastructure/read-model/read-model-store.port");
const api_keys_projection_1 = require("../../projections/api-keys/api-keys.projection");
/** The per-request key lookup: one HGETALL by hash, no per-instance cache to go stale. */
let ApiKeyLookup = class ApiKeyLookup {
    store;
    constructor(store) {
        this.store = store;
    }
    async byHash(hash) {
        return credentialFrom(await this.store.hgetall(api_keys_projection_1.apiKeyKeys.byHash(hash)));
    }
};
exports.ApiKeyLookup = ApiKeyLookup;
exports.ApiKeyLookup = ApiKeyLookup = __decorate([
    (0, common_1.Injectable)(),
    __param(0, (0, common_1.Inject)(read_model_store_port_1.READ_MODEL_STORE)),
    __metadata("design:paramtypes", [Object])
], ApiKeyLookup);
/** The read model's hash of a key, as the gate uses it; null when there is no such key. */
function credentialFrom(record) {
    if (!record.key_id)
        return null;
    return {
        keyId: record.key_id,
        accountId: record.account_id || null,
        scopes: (record.scopes ? record.scopes.split(',') : []),
        environment: record.environment,
        expiresAt: record.expires_at ? new Date(record.expires_at) : null,
        revoked: record.revoked === '1',
    };
}
//# sourceMappingURL=api-key.lookup.js.map