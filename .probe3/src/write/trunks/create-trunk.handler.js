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
exports.CreateTrunkHandler = exports.CreateTrunk = void 0;
const common_1 = require("@nestjs/common");
const cqrs_1 = require("@nestjs/cqrs");
const event_store_port_1 = require("../../infrastructure/event-store/event-store.port");
const secret_box_1 = require("../../infrastructure/secrets/secret-box");
const app_config_1 = require("../../platform/config/app-config");
const read_models_service_1 = require("../../projections/read-models.service");
const clock_1 = require("../../shared/clock");
const domain_error_1 = require("../../shared/domain-error");
const ids_1 = require("../../shared/ids");
const command_runner_1 = require("../command-runner");
const reservation_service_1 = require("../reservations/reservation.service");
const trunk_decider_1 = require("./domain/trunk.decider");
const trunk_support_1 = require("./trunk-support");
class CreateTrunk {
    accountId;
    input;
    metadata;
    constructor(accountId, input, metadata) {
        this.accountId = accountId;
        this.input = input;
        this.metadata = metadata;
    }
}
exports.CreateTrunk = CreateTrunk;
/**
 * Reserve the sip_username and the name (atomically, in the event store), encrypt the secrets
 * under a fresh data key, append TrunkCreated. Any failure after a reservation releases it.
 */
let CreateTrunkHandler = class CreateTrunkHandler {
    runner;
    reservations;
    support;
    readModels;
    secrets;
    config;
    clock;
    constructor(runner, reservations, support, readModels, secrets, config, clock) {
        this.runner = runner;
        this.reservations = reservations;
        this.support = support;
        this.readModels = readModels;
        this.secrets = secrets;
        this.config = config;
        this.clock = clock;
    }
    async execute({ accountId, input, metadata }) {
        const name = input.name.trim();
        const trunkId = (0, ids_1.newId)('conn');
        // The decider checks this again; checking first spares reservations a request bound to fail.
        (0, trunk_decider_1.checkWiring)(input.ai_provider, await this.wiring(trunkId, input, false), true);
        const credentials = credentialsOf(input);
        if (credentials)
            await this.support.checkProvider(credentials);
        const at = this.clock.now();
        const username = this.support.usernameReservation(input.sip_username, trunkId, at, metadata);
        const trunkName = this.support.nameReservation(accountId, name, trunkId, at, metadata);
        await this.reservations.reserve(username, this.support.isStale);
        const held = [username];
        try {
            await this.reservations.reserve(trunkName, this.support.isStale);
            held.push(trunkName);
            await this.secrets.createDataKey(trunkId);
            const outcome = await this.runner.run((0, trunk_decider_1.trunkStream)(trunkId), trunk_decider_1.trunkDecider, {
                type: 'CreateTrunk',
                data: {
                    trunkId, accountId, name, provider: input.ai_provider, sipUsername: input.sip_username, at,
                    sipPassword: await this.secrets.encrypt(trunkId, 'sip_password', input.sip_password),
                    wiring: await this.wiring(trunkId, input),
                    settings: { system_prompt: input.system_prompt, vad: input.vad ? { ...input.vad } : undefined, provider_settings: input.provider_settings ? { ...input.provider_settings } : undefined, allowed_addresses: input.allowed_addresses },
                },
            }, metadata, { expected: 'no_stream' });
            await this.readModels.waitFor(outcome.position);
            return { id: trunkId, name, status: 'active', ai_provider: input.ai_provider, sip_username: input.sip_username, sip_endpoint: `${input.sip_username}@${this.config.sipDomain}`, created_at: at.toISOString() };
        }
        catch (error) {
            // Undo only when the trunk was certainly not created (a decision, not an outage whose
            // append may have committed); an abandoned reservation is taken over later anyway.
            if (error instanceof domain_error_1.DomainError || error instanceof event_store_port_1.VersionConflictError) {
                await Promise.allSettled([...held.map((r) => this.reservations.release(r)), this.secrets.destroy(trunkId)]);
            }
            throw error;
        }
    }
    /** The provider fields, secrets encrypted (or only marked present, for the early check). */
    async wiring(trunkId, input, encrypt = true) {
        const seal = async (field, value) => (encrypt ? this.secrets.encrypt(trunkId, field, value) : PRESENT);
        const wiring = {};
        if (input.openai_api_key !== undefined)
            wiring.openai_api_key = await seal('openai_api_key', input.openai_api_key);
        if (input.elevenlabs_api_key !== undefined)
            wiring.elevenlabs_api_key = await seal('elevenlabs_api_key', input.elevenlabs_api_key);
        if (input.elevenlabs_agent_id !== undefined)
            wiring.elevenlabs_agent_id = input.elevenlabs_agent_id;
        if (input.custom_endpoint !== undefined)
            wiring.custom_endpoint = input.custom_endpoint;
        return wiring;
    }
};
exports.CreateTrunkHandler = CreateTrunkHandler;
exports.CreateTrunkHandler = CreateTrunkHandler = __decorate([
    (0, cqrs_1.CommandHandler)(CreateTrunk),
    __param(4, (0, common_1.Inject)(secret_box_1.SECRET_BOX)),
    __param(5, (0, common_1.Inject)(app_config_1.APP_CONFIG)),
    __param(6, (0, common_1.Inject)(clock_1.CLOCK)),
    __metadata("design:paramtypes", [command_runner_1.CommandRunner,
        reservation_service_1.Reservations,
        trunk_support_1.TrunkSupport,
        read_models_service_1.ReadModels,
        secret_box_1.SecretBox, Object, Object])
], CreateTrunkHandler);
const PRESENT = { v: 1, alg: 'A256GCM', iv: '', ct: '', tag: '' };
/** The credentials to validate; absent ones are left to the decider's "required" rule. */
function credentialsOf(input) {
    switch (input.ai_provider) {
        case 'openai':
            return input.openai_api_key !== undefined ? { provider: 'openai', apiKey: input.openai_api_key } : null;
        case 'elevenlabs':
            return input.elevenlabs_api_key !== undefined && input.elevenlabs_agent_id !== undefined
                ? { provider: 'elevenlabs', apiKey: input.elevenlabs_api_key, agentId: input.elevenlabs_agent_id }
                : null;
        case 'custom':
            return input.custom_endpoint !== undefined ? { provider: 'custom', endpoint: input.custom_endpoint } : null;
    }
}
//# sourceMappingURL=create-trunk.handler.js.map