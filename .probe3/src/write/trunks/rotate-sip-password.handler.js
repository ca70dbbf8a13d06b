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
exports.RotateSipPasswordHandler = exports.RotateSipPassword = exports.GENERATED_PASSWORD_LENGTH = void 0;
const common_1 = require("@nestjs/common");
const cqrs_1 = require("@nestjs/cqrs");
const secret_box_1 = require("../../infrastructure/secrets/secret-box");
const read_models_service_1 = require("../../projections/read-models.service");
const clock_1 = require("../../shared/clock");
const domain_error_1 = require("../../shared/domain-error");
const ids_1 = require("../../shared/ids");
const command_runner_1 = require("../command-runner");
const trunk_decider_1 = require("./domain/trunk.decider");
/** 32 base62 characters from the CSPRNG: about 190 bits. */
exports.GENERATED_PASSWORD_LENGTH = 32;
class RotateSipPassword {
    trunkId;
    accountId;
    metadata;
    constructor(trunkId, accountId, metadata) {
        this.trunkId = trunkId;
        this.accountId = accountId;
        this.metadata = metadata;
    }
}
exports.RotateSipPassword = RotateSipPassword;
/**
 * The new password is generated here, returned once, and replaces the old one in the gateway's
 * read model before the response: the very next lookup sees only the new HA1.
 */
let RotateSipPasswordHandler = class RotateSipPasswordHandler {
    runner;
    readModels;
    secrets;
    clock;
    constructor(runner, readModels, secrets, clock) {
        this.runner = runner;
        this.readModels = readModels;
        this.secrets = secrets;
        this.clock = clock;
    }
    async execute({ trunkId, accountId, metadata }) {
        const password = (0, ids_1.randomBase62)(exports.GENERATED_PASSWORD_LENGTH);
        const at = this.clock.now();
        const { state: current } = await this.runner.load((0, trunk_decider_1.trunkStream)(trunkId), trunk_decider_1.trunkDecider);
        // Encrypting needs the trunk's data key: only a live trunk of this account has one to use.
        if (current.status === 'none' || current.status === 'deleted' || current.accountId !== accountId)
            throw new domain_error_1.DomainError('not_found', `Trunk ${trunkId} not found`);
        const sipPassword = await this.secrets.encrypt(trunkId, 'sip_password', password);
        const outcome = await this.runner.run((0, trunk_decider_1.trunkStream)(trunkId), trunk_decider_1.trunkDecider, { type: 'RotateSipPassword', data: { accountId, sipPassword, at } }, metadata);
        await this.readModels.waitFor(outcome.position);
        const rotated = outcome.events[0];
        if (rotated.type !== 'SipPasswordRotated')
            throw new Error('unexpected event');
        return { id: trunkId, sip_username: rotated.data.sip_username, sip_password: password, rotated_at: rotated.data.rotated_at };
    }
};
exports.RotateSipPasswordHandler = RotateSipPasswordHandler;
exports.RotateSipPasswordHandler = RotateSipPasswordHandler = __decorate([
    (0, cqrs_1.CommandHandler)(RotateSipPassword),
    __param(2, (0, common_1.Inject)(secret_box_1.SECRET_BOX)),
    __param(3, (0, common_1.Inject)(clock_1.CLOCK)),
    __metadata("design:paramtypes", [command_runner_1.CommandRunner,
        read_models_service_1.ReadModels,
        secret_box_1.SecretBox, Object])
], RotateSipPasswordHandler);
//# sourceMappingURL=rotate-sip-password.handler.js.map