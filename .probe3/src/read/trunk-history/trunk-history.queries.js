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
exports.GetTrunkAsOfHandler = exports.GetTrunkHistoryHandler = exports.GetTrunkAsOf = exports.GetTrunkHistory = void 0;
exports.redact = redact;
const common_1 = require("@nestjs/common");
const cqrs_1 = require("@nestjs/cqrs");
const event_store_port_1 = require("../../infrastructure/event-store/event-store.port");
const app_config_1 = require("../../platform/config/app-config");
const decider_1 = require("../../shared/decider");
const domain_error_1 = require("../../shared/domain-error");
const encrypted_secret_1 = require("../../shared/encrypted-secret");
const trunk_decider_1 = require("../../write/trunks/domain/trunk.decider");
/*
 * The auditor's views read the trunk's own stream: the history IS the log, so no read model
 * could answer better. Everything else on the read side is served from read models.
 */
class GetTrunkHistory {
    accountId;
    trunkId;
    limit;
    offset;
    constructor(accountId, trunkId, limit, offset) {
        this.accountId = accountId;
        this.trunkId = trunkId;
        this.limit = limit;
        this.offset = offset;
    }
}
exports.GetTrunkHistory = GetTrunkHistory;
class GetTrunkAsOf {
    accountId;
    trunkId;
    asOf;
    constructor(accountId, trunkId, asOf) {
        this.accountId = accountId;
        this.trunkId = trunkId;
        this.asOf = asOf;
    }
}
exports.GetTrunkAsOf = GetTrunkAsOf;
async function ownedHistory(events, accountId, trunkId) {
    const history = await events.readStream((0, trunk_decider_1.trunkStream)(trunkId));
    const created = history[0]?.data;
    if (!created || created.account_id !== accountId)
        throw new domain_error_1.DomainError('not_found', `Trunk ${trunkId} not found`);
    return history;
}
let GetTrunkHistoryHandler = class GetTrunkHistoryHandler {
    events;
    constructor(events) {
        this.events = events;
    }
    async execute({ accountId, trunkId, limit, offset }) {
        const history = await ownedHistory(this.events, accountId, trunkId);
        const events = history.slice(offset, offset + limit).map((e) => ({
            revision: e.revision,
            type: e.type,
            recorded_at: e.recordedAt.toISOString(),
            actor: typeof e.metadata.actor === 'string' ? e.metadata.actor : null,
            correlation_id: typeof e.metadata.correlation_id === 'string' ? e.metadata.correlation_id : null,
            data: redact(e.data),
        }));
        return { events, pagination: { limit, offset, total: history.length } };
    }
};
exports.GetTrunkHistoryHandler = GetTrunkHistoryHandler;
exports.GetTrunkHistoryHandler = GetTrunkHistoryHandler = __decorate([
    (0, cqrs_1.QueryHandler)(GetTrunkHistory),
    __param(0, (0, common_1.Inject)(event_store_port_1.EVENT_STORE)),
    __metadata("design:paramtypes", [Object])
], GetTrunkHistoryHandler);
let GetTrunkAsOfHandler = class GetTrunkAsOfHandler {
    events;
    config;
    constructor(events, config) {
        this.events = events;
        this.config = config;
    }
    async execute({ accountId, trunkId, asOf }) {
        const history = await ownedHistory(this.events, accountId, trunkId);
        const until = history.filter((e) => e.recordedAt.getTime() <= asOf.getTime()).map((e) => e);
        const state = (0, decider_1.fold)(trunk_decider_1.trunkDecider, until);
        if (state.status === 'none' || state.status === 'deleted')
            throw new domain_error_1.DomainError('not_found', `Trunk ${trunkId} did not exist at ${asOf.toISOString()}`);
        return detailOfState(state, this.config.sipDomain);
    }
};
exports.GetTrunkAsOfHandler = GetTrunkAsOfHandler;
exports.GetTrunkAsOfHandler = GetTrunkAsOfHandler = __decorate([
    (0, cqrs_1.QueryHandler)(GetTrunkAsOf),
    __param(0, (0, common_1.Inject)(event_store_port_1.EVENT_STORE)),
    __param(1, (0, common_1.Inject)(app_config_1.APP_CONFIG)),
    __metadata("design:paramtypes", [Object, Object])
], GetTrunkAsOfHandler);
function detailOfState(t, sipDomain) {
    return {
        id: t.trunkId, name: t.name, status: t.status, ai_provider: t.provider, sip_username: t.sipUsername, sip_endpoint: `${t.sipUsername}@${sipDomain}`,
        created_at: t.createdAt, updated_at: t.updatedAt, ...t.settings,
        elevenlabs_agent_id: t.wiring.elevenlabs_agent_id ?? null, custom_endpoint: t.wiring.custom_endpoint ?? null,
    };
}
/** Encrypted secrets become "[redacted]": auditors see that a secret changed, never its bytes. */
function redact(value) {
    if ((0, encrypted_secret_1.isEncryptedSecret)(value))
        return '[redacted]';
    if (Array.isArray(value))
        return value.map(redact);
    if (value && typeof value === 'object')
        return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, redact(v)]));
    return value;
}
//# sourceMappingURL=trunk-history.queries.js.map