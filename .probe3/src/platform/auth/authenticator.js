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
exports.Authenticator = exports.ENV_ADMIN_KEY_ID = void 0;
const node_crypto_1 = require("node:crypto");
const common_1 = require("@nestjs/common");
const domain_error_1 = require("../../shared/domain-error");
const app_config_1 = require("../config/app-config");
const api_key_1 = require("./api-key");
const credential_gate_1 = require("./credential-gate");
const BEARER = /^Bearer[ \t]+(\S+)[ \t]*$/i;
exports.ENV_ADMIN_KEY_ID = 'key_admin_env';
/** Who is calling, and the rate-limit decision for the request, counted against the key or the client. */
let Authenticator = class Authenticator {
    config;
    gate;
    adminHash;
    constructor(config, gate) {
        this.config = config;
        this.gate = gate;
        this.adminHash = config.adminApiKey ? Buffer.from((0, api_key_1.hashApiKey)(config.adminApiKey), 'hex') : null;
    }
    async authenticate(authorization, now, clientBucket) {
        const refuse = async (error) => ({ principal: null, error, decision: await this.gate.consume(clientBucket) });
        if (authorization === undefined || authorization.trim() === '') {
            return refuse(new domain_error_1.DomainError('missing_authentication', 'Missing Authorization header: send "Authorization: Bearer <API key>"'));
        }
        const match = BEARER.exec(authorization);
        if (!match)
            return refuse(new domain_error_1.DomainError('unauthorized', 'Authorization header must be "Bearer <API key>"'));
        const key = match[1];
        const environment = (0, api_key_1.environmentOfKey)(key);
        if (!environment)
            return refuse(new domain_error_1.DomainError('unauthorized', 'Invalid API key'));
        if (environment !== this.config.appEnv) {
            return refuse(new domain_error_1.DomainError('unauthorized', `This is a ${environment} key; this service runs in the ${this.config.appEnv} environment`));
        }
        const hash = (0, api_key_1.hashApiKey)(key);
        if (this.adminHash && (0, node_crypto_1.timingSafeEqual)(this.adminHash, Buffer.from(hash, 'hex'))) {
            return { principal: { keyId: exports.ENV_ADMIN_KEY_ID, accountId: null, scopes: ['admin'], environment }, error: null, decision: await this.gate.consume(`key:${exports.ENV_ADMIN_KEY_ID}`) };
        }
        const { credential, decision } = await this.gate.lookupAndConsume(hash, clientBucket);
        const fail = (message) => ({ principal: null, error: new domain_error_1.DomainError('unauthorized', message), decision });
        if (!credential || credential.environment !== environment)
            return fail('Invalid API key');
        if (credential.revoked)
            return fail('This API key has been revoked');
        if (credential.expiresAt && credential.expiresAt.getTime() <= now.getTime())
            return fail('This API key has expired');
        return { principal: { keyId: credential.keyId, accountId: credential.accountId, scopes: credential.scopes, environment }, error: null, decision };
    }
};
exports.Authenticator = Authenticator;
exports.Authenticator = Authenticator = __decorate([
    (0, common_1.Injectable)(),
    __param(0, (0, common_1.Inject)(app_config_1.APP_CONFIG)),
    __metadata("design:paramtypes", [Object, credential_gate_1.CredentialGate])
], Authenticator);
//# sourceMappingURL=authenticator.js.map