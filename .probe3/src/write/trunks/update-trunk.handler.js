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
exports.UpdateTrunkHandler = exports.UpdateTrunk = void 0;
const common_1 = require("@nestjs/common");
const cqrs_1 = require("@nestjs/cqrs");
const secret_box_1 = require("../../infrastructure/secrets/secret-box");
const read_models_service_1 = require("../../projections/read-models.service");
const clock_1 = require("../../shared/clock");
const domain_error_1 = require("../../shared/domain-error");
const command_runner_1 = require("../command-runner");
const reservation_service_1 = require("../reservations/reservation.service");
const trunk_decider_1 = require("./domain/trunk.decider");
const trunk_support_1 = require("./trunk-support");
class UpdateTrunk {
    trunkId;
    accountId;
    input;
    metadata;
    constructor(trunkId, accountId, input, metadata) {
        this.trunkId = trunkId;
        this.accountId = accountId;
        this.input = input;
        this.metadata = metadata;
    }
}
exports.UpdateTrunk = UpdateTrunk;
let UpdateTrunkHandler = class UpdateTrunkHandler {
    runner;
    reservations;
    support;
    readModels;
    secrets;
    clock;
    constructor(runner, reservations, support, readModels, secrets, clock) {
        this.runner = runner;
        this.reservations = reservations;
        this.support = support;
        this.readModels = readModels;
        this.secrets = secrets;
        this.clock = clock;
    }
    async execute({ trunkId, accountId, input, metadata }) {
        const trunk = await this.liveTrunk(trunkId, accountId);
        (0, trunk_decider_1.checkWiring)(trunk.provider, presence(input), false);
        const credentials = await this.credentialsToCheck(trunk, input);
        if (credentials)
            await this.support.checkProvider(credentials);
        const at = this.clock.now();
        const newName = input.name?.trim();
        const reserved = await this.reserveNewName(trunk, newName, at, metadata);
        try {
            const changes = {
                ...(newName !== undefined ? { name: newName } : {}),
                ...(input.status !== undefined ? { status: input.status } : {}),
                ...(input.system_prompt !== undefined ? { system_prompt: input.system_prompt } : {}),
                ...(input.vad !== undefined ? { vad: input.vad && { ...input.vad } } : {}),
                ...(input.provider_settings !== undefined ? { provider_settings: input.provider_settings && { ...input.provider_settings } } : {}),
                ...(input.allowed_addresses !== undefined ? { allowed_addresses: input.allowed_addresses } : {}),
            };
            const wiring = await this.sealedWiring(trunkId, input);
            if (Object.keys(wiring).length > 0)
                changes.wiring = wiring;
            const outcome = await this.runner.run((0, trunk_decider_1.trunkStream)(trunkId), trunk_decider_1.trunkDecider, { type: 'UpdateTrunk', data: { accountId, changes, at } }, metadata);
            const previousName = outcome.events.find((e) => e.type === 'TrunkUpdated')?.data;
            if (previousName && 'previous_name' in previousName && previousName.previous_name !== undefined) {
                const old = this.support.nameReservation(accountId, previousName.previous_name, trunkId, at, metadata);
                if (old.stream !== reserved?.stream)
                    await this.reservations.release(old);
            }
            await this.readModels.waitFor(outcome.position);
            const state = outcome.state;
            return { id: trunkId, name: state.name, status: state.status, updated_at: state.updatedAt };
        }
        catch (error) {
            if (reserved)
                await this.reservations.release(reserved).catch(() => undefined);
            throw error;
        }
    }
    async liveTrunk(trunkId, accountId) {
        const { state } = await this.runner.load((0, trunk_decider_1.trunkStream)(trunkId), trunk_decider_1.trunkDecider);
        if (state.status === 'none' || state.status === 'deleted' || state.accountId !== accountId)
            throw new domain_error_1.DomainError('not_found', `Trunk ${trunkId} not found`);
        return state;
    }
    /** A rename holds the new name first; a change of case only keeps the same reservation. */
    async reserveNewName(trunk, newName, at, metadata) {
        if (newName === undefined)
            return null;
        const wanted = this.support.nameReservation(trunk.accountId, newName, trunk.trunkId, at, metadata);
        if (wanted.stream === this.support.nameReservation(trunk.accountId, trunk.name, trunk.trunkId, at, metadata).stream)
            return null;
        await this.reservations.reserve(wanted, this.support.isStale);
        return wanted;
    }
    /** ElevenLabs checks key and agent together: a change of either is checked with the other. */
    async credentialsToCheck(trunk, input) {
        if (trunk.provider === 'openai' && input.openai_api_key !== undefined)
            return { provider: 'openai', apiKey: input.openai_api_key };
        if (trunk.provider === 'custom' && input.custom_endpoint !== undefined)
            return { provider: 'custom', endpoint: input.custom_endpoint };
        if (trunk.provider !== 'elevenlabs' || (input.elevenlabs_api_key === undefined && input.elevenlabs_agent_id === undefined))
            return null;
        const apiKey = input.elevenlabs_api_key ?? (await this.secrets.decrypt(trunk.trunkId, 'elevenlabs_api_key', trunk.wiring.elevenlabs_api_key));
        return { provider: 'elevenlabs', apiKey, agentId: input.elevenlabs_agent_id ?? trunk.wiring.elevenlabs_agent_id };
    }
    async sealedWiring(trunkId, input) {
        const wiring = {};
        if (input.openai_api_key !== undefined)
            wiring.openai_api_key = await this.secrets.encrypt(trunkId, 'openai_api_key', input.openai_api_key);
        if (input.elevenlabs_api_key !== undefined)
            wiring.elevenlabs_api_key = await this.secrets.encrypt(trunkId, 'elevenlabs_api_key', input.elevenlabs_api_key);
        if (input.elevenlabs_agent_id !== undefined)
            wiring.elevenlabs_agent_id = input.elevenlabs_agent_id;
        if (input.custom_endpoint !== undefined)
            wiring.custom_endpoint = input.custom_endpoint;
        return wiring;
    }
};
exports.UpdateTrunkHandler = UpdateTrunkHandler;
exports.UpdateTrunkHandler = UpdateTrunkHandler = __decorate([
    (0, cqrs_1.CommandHandler)(UpdateTrunk),
    __param(4, (0, common_1.Inject)(secret_box_1.SECRET_BOX)),
    __param(5, (0, common_1.Inject)(clock_1.CLOCK)),
    __metadata("design:paramtypes", [command_runner_1.CommandRunner,
        reservation_service_1.Reservations,
        trunk_support_1.TrunkSupport,
        read_models_service_1.ReadModels,
        secret_box_1.SecretBox, Object])
], UpdateTrunkHandler);
/** Which provider fields the request carries, for the "does not apply" rule. */
function presence(input) {
    const marker = { v: 1, alg: 'A256GCM', iv: '', ct: '', tag: '' };
    return {
        ...(input.openai_api_key !== undefined ? { openai_api_key: marker } : {}),
        ...(input.elevenlabs_api_key !== undefined ? { elevenlabs_api_key: marker } : {}),
        ...(input.elevenlabs_agent_id !== undefined ? { elevenlabs_agent_id: input.elevenlabs_agent_id } : {}),
        ...(input.custom_endpoint !== undefined ? { custom_endpoint: input.custom_endpoint } : {}),
    };
}
//# sourceMappingURL=update-trunk.handler.js.map