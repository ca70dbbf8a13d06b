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
exports.GetTrunkHandler = exports.ListTrunksHandler = exports.GetTrunk = exports.ListTrunks = void 0;
exports.detailOf = detailOf;
const common_1 = require("@nestjs/common");
const cqrs_1 = require("@nestjs/cqrs");
const read_model_store_port_1 = require("../../infrastructure/read-model/read-model-store.port");
const app_config_1 = require("../../platform/config/app-config");
const trunk_view_1 = require("../../projections/trunks/trunk-view");
const clock_1 = require("../../shared/clock");
const domain_error_1 = require("../../shared/domain-error");
const trunk_stats_port_1 = require("./trunk-stats.port");
class ListTrunks {
    accountId;
    limit;
    offset;
    status;
    order;
    constructor(accountId, limit, offset, status, order) {
        this.accountId = accountId;
        this.limit = limit;
        this.offset = offset;
        this.status = status;
        this.order = order;
    }
}
exports.ListTrunks = ListTrunks;
class GetTrunk {
    accountId;
    trunkId;
    constructor(accountId, trunkId) {
        this.accountId = accountId;
        this.trunkId = trunkId;
    }
}
exports.GetTrunk = GetTrunk;
/** One round trip for the page (index + values), one query for the stats of the page. */
let ListTrunksHandler = class ListTrunksHandler {
    store;
    stats;
    clock;
    constructor(store, stats, clock) {
        this.store = store;
        this.stats = stats;
        this.clock = clock;
    }
    async execute({ accountId, limit, offset, status, order }) {
        const index = status ? trunk_view_1.trunkKeys.byAccountAndStatus(accountId, status) : trunk_view_1.trunkKeys.byAccount(accountId);
        const page = await this.store.page(index, trunk_view_1.trunkKeys.trunkPrefix, offset, limit, order);
        const views = page.values.filter((v) => v !== null).map((v) => JSON.parse(v));
        const stats = views.length > 0 ? await this.stats.statsFor(accountId, views.map((v) => v.id), this.clock.now()) : new Map();
        const trunks = views.map((v) => ({
            id: v.id, name: v.name, status: v.status, ai_provider: v.ai_provider, sip_username: v.sip_username,
            created_at: v.created_at, updated_at: v.updated_at, stats: stats.get(v.id) ?? { ...trunk_stats_port_1.NO_CALLS },
        }));
        return { trunks, pagination: { limit, offset, total: page.total } };
    }
};
exports.ListTrunksHandler = ListTrunksHandler;
exports.ListTrunksHandler = ListTrunksHandler = __decorate([
    (0, cqrs_1.QueryHandler)(ListTrunks),
    __param(0, (0, common_1.Inject)(read_model_store_port_1.READ_MODEL_STORE)),
    __param(1, (0, common_1.Inject)(trunk_stats_port_1.TRUNK_STATS_READER)),
    __param(2, (0, common_1.Inject)(clock_1.CLOCK)),
    __metadata("design:paramtypes", [Object, Object, Object])
], ListTrunksHandler);
let GetTrunkHandler = class GetTrunkHandler {
    store;
    config;
    constructor(store, config) {
        this.store = store;
        this.config = config;
    }
    async execute({ accountId, trunkId }) {
        const raw = await this.store.get(trunk_view_1.trunkKeys.trunk(trunkId));
        const view = raw ? JSON.parse(raw) : null;
        if (!view || view.account_id !== accountId)
            throw new domain_error_1.DomainError('not_found', `Trunk ${trunkId} not found`);
        return detailOf(view, this.config.sipDomain);
    }
};
exports.GetTrunkHandler = GetTrunkHandler;
exports.GetTrunkHandler = GetTrunkHandler = __decorate([
    (0, cqrs_1.QueryHandler)(GetTrunk),
    __param(0, (0, common_1.Inject)(read_model_store_port_1.READ_MODEL_STORE)),
    __param(1, (0, common_1.Inject)(app_config_1.APP_CONFIG)),
    __metadata("design:paramtypes", [Object, Object])
], GetTrunkHandler);
function detailOf(v, sipDomain) {
    return {
        id: v.id, name: v.name, status: v.status, ai_provider: v.ai_provider, sip_username: v.sip_username, sip_endpoint: `${v.sip_username}@${sipDomain}`,
        created_at: v.created_at, updated_at: v.updated_at, system_prompt: v.system_prompt, vad: v.vad, provider_settings: v.provider_settings,
        allowed_addresses: v.allowed_addresses, elevenlabs_agent_id: v.elevenlabs_agent_id, custom_endpoint: v.custom_endpoint,
    };
}
//# sourceMappingURL=trunk.queries.js.map