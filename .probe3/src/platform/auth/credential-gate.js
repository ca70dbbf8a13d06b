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
exports.CredentialGate = exports.WINDOW_SECONDS = void 0;
const common_1 = require("@nestjs/common");
const rate_limiter_port_1 = require("../../infrastructure/rate-limit/rate-limiter.port");
const redis_rate_limiter_1 = require("../../infrastructure/rate-limit/redis.rate-limiter");
const read_model_store_port_1 = require("../../infrastructure/read-model/read-model-store.port");
const redis_read_model_store_1 = require("../../infrastructure/read-model/redis.read-model-store");
const api_keys_projection_1 = require("../../projections/api-keys/api-keys.projection");
const api_key_lookup_1 = require("../../read/api-keys/api-key.lookup");
const app_config_1 = require("../config/app-config");
exports.WINDOW_SECONDS = 60;
/**
 * A key's credential and the request's rate-limit decision together. On Redis both come from one
 * script (one round trip on every authenticated request); in memory, from the two stores in turn.
 * Without a credential, the request counts against the fallback bucket (the client address).
 */
let CredentialGate = class CredentialGate {
    config;
    limiter;
    lookup;
    redis;
    constructor(config, limiter, store, lookup) {
        this.config = config;
        this.limiter = limiter;
        this.lookup = lookup;
        this.redis = limiter instanceof redis_rate_limiter_1.RedisRateLimiter && store instanceof redis_read_model_store_1.RedisReadModelStore ? limiter : null;
    }
    async lookupAndConsume(hash, fallbackBucket) {
        const limit = this.config.rateLimitPerMinute;
        if (this.redis) {
            const key = (0, app_config_1.readModelNamespace)(this.config) + api_keys_projection_1.apiKeyKeys.byHash(hash);
            const { credential, decision } = await this.redis.consumeWithCredential(key, 'key:', fallbackBucket, limit, exports.WINDOW_SECONDS);
            return { credential: (0, api_key_lookup_1.credentialFrom)(credential), decision };
        }
        const credential = await this.lookup.byHash(hash);
        return { credential, decision: await this.consume(credential ? `key:${credential.keyId}` : fallbackBucket) };
    }
    consume(bucket) {
        return this.limiter.consume(bucket, this.config.rateLimitPerMinute, exports.WINDOW_SECONDS);
    }
};
exports.CredentialGate = CredentialGate;
exports.CredentialGate = CredentialGate = __decorate([
    (0, common_1.Injectable)(),
    __param(0, (0, common_1.Inject)(app_config_1.APP_CONFIG)),
    __param(1, (0, common_1.Inject)(rate_limiter_port_1.RATE_LIMITER)),
    __param(2, (0, common_1.Inject)(read_model_store_port_1.READ_MODEL_STORE)),
    __metadata("design:paramtypes", [Object, Object, Object, api_key_lookup_1.ApiKeyLookup])
], CredentialGate);
//# sourceMappingURL=credential-gate.js.map