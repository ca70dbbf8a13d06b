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
exports.RevokeApiKeyHandler = exports.IssueApiKeyHandler = exports.RevokeApiKey = exports.IssueApiKey = void 0;
const common_1 = require("@nestjs/common");
const cqrs_1 = require("@nestjs/cqrs");
const event_store_port_1 = require("../../infrastructure/event-store/event-store.port");
const api_key_1 = require("../../platform/auth/api-key");
const app_config_1 = require("../../platform/config/app-config");
const read_models_service_1 = require("../../projections/read-models.service");
const clock_1 = require("../../shared/clock");
const domain_error_1 = require("../../shared/domain-error");
const ids_1 = require("../../shared/ids");
const account_decider_1 = require("../accounts/domain/account.decider");
const command_runner_1 = require("../command-runner");
const api_key_decider_1 = require("./domain/api-key.decider");
class IssueApiKey {
    input;
    metadata;
    constructor(input, metadata) {
        this.input = input;
        this.metadata = metadata;
    }
}
exports.IssueApiKey = IssueApiKey;
class RevokeApiKey {
    keyId;
    metadata;
    constructor(keyId, metadata) {
        this.keyId = keyId;
        this.metadata = metadata;
    }
}
exports.RevokeApiKey = RevokeApiKey;
let IssueApiKeyHandler = class IssueApiKeyHandler {
    runner;
    readModels;
    events;
    config;
    clock;
    constructor(runner, readModels, events, config, clock) {
        this.runner = runner;
        this.readModels = readModels;
        this.events = events;
        this.config = config;
        this.clock = clock;
    }
    async execute({ input, metadata }) {
        await this.checkOwner(input.accountId, input.scopes);
        const key = (0, api_key_1.generateApiKey)(this.config.appEnv);
        const keyId = (0, ids_1.newId)('key');
        const outcome = await this.runner.run((0, api_key_decider_1.apiKeyStream)(keyId), api_key_decider_1.apiKeyDecider, { type: 'IssueApiKey', data: { ...input, keyId, environment: this.config.appEnv, keyHash: (0, api_key_1.hashApiKey)(key), keyHint: (0, api_key_1.keyHint)(key), at: this.clock.now() } }, metadata);
        await this.readModels.waitFor(outcome.position);
        const issued = outcome.events[0];
        if (issued.type !== 'ApiKeyIssued')
            throw new Error('unexpected event');
        const { key_hash: _hash, key_id: id, ...rest } = issued.data;
        return { id, key, ...rest };
    }
    /** Admin keys belong to no account; every other key belongs to an existing account. */
    async checkOwner(accountId, scopes) {
        if (scopes.includes('admin')) {
            if (accountId !== null || scopes.length > 1) {
                throw new domain_error_1.DomainError('missing_required_field', 'An admin key has scopes ["admin"] and no account_id', { param: 'scopes' });
            }
            return;
        }
        if (accountId === null)
            throw new domain_error_1.DomainError('missing_required_field', 'account_id is required for keys with scopes full, read or ingest', { param: 'account_id' });
        const [created] = await this.events.readStream((0, account_decider_1.accountStream)(accountId), { maxCount: 1 });
        if (!created)
            throw new domain_error_1.DomainError('not_found', `Account ${accountId} not found`);
    }
};
exports.IssueApiKeyHandler = IssueApiKeyHandler;
exports.IssueApiKeyHandler = IssueApiKeyHandler = __decorate([
    (0, cqrs_1.CommandHandler)(IssueApiKey),
    __param(2, (0, common_1.Inject)(event_store_port_1.EVENT_STORE)),
    __param(3, (0, common_1.Inject)(app_config_1.APP_CONFIG)),
    __param(4, (0, common_1.Inject)(clock_1.CLOCK)),
    __metadata("design:paramtypes", [command_runner_1.CommandRunner,
        read_models_service_1.ReadModels, Object, Object, Object])
], IssueApiKeyHandler);
let RevokeApiKeyHandler = class RevokeApiKeyHandler {
    runner;
    readModels;
    clock;
    constructor(runner, readModels, clock) {
        this.runner = runner;
        this.readModels = readModels;
        this.clock = clock;
    }
    async execute({ keyId, metadata }) {
        if (!/^key_[A-Za-z0-9_]{1,64}$/.test(keyId))
            throw new domain_error_1.DomainError('not_found', `API key ${keyId} not found`);
        const outcome = await this.runner.run((0, api_key_decider_1.apiKeyStream)(keyId), api_key_decider_1.apiKeyDecider, { type: 'RevokeApiKey', data: { keyId, at: this.clock.now() } }, metadata);
        // Revocation must hold on every instance before the 204: the auth lookup reads this model.
        await this.readModels.waitFor(outcome.position);
    }
};
exports.RevokeApiKeyHandler = RevokeApiKeyHandler;
exports.RevokeApiKeyHandler = RevokeApiKeyHandler = __decorate([
    (0, cqrs_1.CommandHandler)(RevokeApiKey),
    __param(2, (0, common_1.Inject)(clock_1.CLOCK)),
    __metadata("design:paramtypes", [command_runner_1.CommandRunner,
        read_models_service_1.ReadModels, Object])
], RevokeApiKeyHandler);
//# sourceMappingURL=api-key.handlers.js.map