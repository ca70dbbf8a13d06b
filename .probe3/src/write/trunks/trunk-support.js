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
exports.TrunkSupport = void 0;
const common_1 = require("@nestjs/common");
const event_store_port_1 = require("../../infrastructure/event-store/event-store.port");
const provider_validator_port_1 = require("../../infrastructure/providers/provider-validator.port");
const domain_error_1 = require("../../shared/domain-error");
const reservation_decider_1 = require("../reservations/domain/reservation.decider");
const trunk_decider_1 = require("./domain/trunk.decider");
/** A reservation whose trunk never got created is abandoned after this long. */
const ABANDONED_AFTER_MS = 60_000;
/** What the trunk handlers share: provider checks, reservation requests, stale-holder checks. */
let TrunkSupport = class TrunkSupport {
    events;
    validator;
    constructor(events, validator) {
        this.events = events;
        this.validator = validator;
    }
    /** 401 invalid_provider_credentials when the provider says no, 503 when it cannot be asked. */
    async checkProvider(credentials) {
        const result = await this.validator.validate(credentials);
        if (result.ok)
            return;
        if (result.reason === 'unreachable') {
            throw new domain_error_1.DomainError('provider_unavailable', `Could not validate the ${credentials.provider} credentials: ${result.message}`, { retryAfterSeconds: 5 });
        }
        throw new domain_error_1.DomainError('invalid_provider_credentials', result.message, { param: result.field });
    }
    usernameReservation(sipUsername, trunkId, at, metadata) {
        return { stream: (0, reservation_decider_1.sipUsernameStream)(sipUsername), label: `sip_username "${sipUsername}"`, ownerId: trunkId, at, metadata };
    }
    nameReservation(accountId, name, trunkId, at, metadata) {
        return { stream: (0, reservation_decider_1.trunkNameStream)(accountId, name), label: `A trunk named "${name.trim()}"`, ownerId: trunkId, at, metadata };
    }
    /** The holder trunk was deleted, or was never created and its reservation is old. */
    isStale = async (holderId, since) => {
        const history = await this.events.readStream((0, trunk_decider_1.trunkStream)(holderId));
        if (history.length === 0)
            return Date.now() - since.getTime() > ABANDONED_AFTER_MS;
        return history[history.length - 1].type === 'TrunkDeleted';
    };
};
exports.TrunkSupport = TrunkSupport;
exports.TrunkSupport = TrunkSupport = __decorate([
    (0, common_1.Injectable)(),
    __param(0, (0, common_1.Inject)(event_store_port_1.EVENT_STORE)),
    __param(1, (0, common_1.Inject)(provider_validator_port_1.PROVIDER_VALIDATOR)),
    __metadata("design:paramtypes", [Object, Object])
], TrunkSupport);
//# sourceMappingURL=trunk-support.js.map