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
exports.AdminBootstrap = exports.BOOTSTRAP_ADMIN_KEY_ID = void 0;
const common_1 = require("@nestjs/common");
const logging_1 = require("../logging/logging");
const event_store_port_1 = require("../../infrastructure/event-store/event-store.port");
const clock_1 = require("../../shared/clock");
const domain_error_1 = require("../../shared/domain-error");
const command_runner_1 = require("../../write/command-runner");
const api_key_decider_1 = require("../../write/api-keys/domain/api-key.decider");
const app_config_1 = require("../config/app-config");
const api_key_1 = require("./api-key");
exports.BOOTSTRAP_ADMIN_KEY_ID = 'key_admin';
/**
 * Without ADMIN_API_KEY, the first start generates an admin key, keeps its hash as an ordinary
 * ApiKeyIssued event (appended with "no stream", so concurrent first starts make exactly one)
 * and hands it to main() to print once.
 */
let AdminBootstrap = class AdminBootstrap {
    config;
    runner;
    clock;
    logger;
    generatedKey = null;
    constructor(config, runner, clock, logging) {
        this.config = config;
        this.runner = runner;
        this.clock = clock;
        this.logger = logging.for('bootstrap');
    }
    async onApplicationBootstrap() {
        if (this.config.adminApiKey) {
            this.logger.info('admin key: ADMIN_API_KEY from the environment');
            return;
        }
        const key = (0, api_key_1.generateApiKey)(this.config.appEnv);
        const command = {
            type: 'IssueApiKey',
            data: {
                keyId: exports.BOOTSTRAP_ADMIN_KEY_ID, accountId: null, name: 'bootstrap admin', scopes: ['admin'],
                environment: this.config.appEnv, keyHash: (0, api_key_1.hashApiKey)(key), keyHint: (0, api_key_1.keyHint)(key), expiresAt: null, at: this.clock.now(),
            },
        };
        try {
            await this.runner.run((0, api_key_decider_1.apiKeyStream)(exports.BOOTSTRAP_ADMIN_KEY_ID), api_key_decider_1.apiKeyDecider, command, { actor: 'system' }, { expected: 'no_stream' });
            this.generatedKey = key;
        }
        catch (error) {
            const exists = error instanceof event_store_port_1.VersionConflictError || (error instanceof domain_error_1.DomainError && ['conflict', 'precondition_failed'].includes(error.code));
            if (!exists)
                throw error;
        }
    }
};
exports.AdminBootstrap = AdminBootstrap;
exports.AdminBootstrap = AdminBootstrap = __decorate([
    (0, common_1.Injectable)(),
    __param(0, (0, common_1.Inject)(app_config_1.APP_CONFIG)),
    __param(2, (0, common_1.Inject)(clock_1.CLOCK)),
    __metadata("design:paramtypes", [Object, command_runner_1.CommandRunner, Object, logging_1.AppLogger])
], AdminBootstrap);
//# sourceMappingURL=admin-bootstrap.js.map