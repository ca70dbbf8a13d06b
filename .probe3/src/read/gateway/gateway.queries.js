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
exports.LookupGatewayTrunkHandler = exports.LookupGatewayTrunk = void 0;
const common_1 = require("@nestjs/common");
const cqrs_1 = require("@nestjs/cqrs");
const read_model_store_port_1 = require("../../infrastructure/read-model/read-model-store.port");
const trunk_view_1 = require("../../projections/trunks/trunk-view");
const domain_error_1 = require("../../shared/domain-error");
class LookupGatewayTrunk {
    accountId;
    sipUsername;
    constructor(accountId, sipUsername) {
        this.accountId = accountId;
        this.sipUsername = sipUsername;
    }
}
exports.LookupGatewayTrunk = LookupGatewayTrunk;
/** The SIP gateway's per-call lookup: one GET from the read model, scoped to the key's account. */
let LookupGatewayTrunkHandler = class LookupGatewayTrunkHandler {
    store;
    constructor(store) {
        this.store = store;
    }
    async execute({ accountId, sipUsername }) {
        const raw = /^[A-Za-z0-9-]{1,64}$/.test(sipUsername) ? await this.store.get(trunk_view_1.trunkKeys.gateway(sipUsername)) : null;
        const record = raw ? JSON.parse(raw) : null;
        if (!record || record.account_id !== accountId)
            throw new domain_error_1.DomainError('not_found', `No trunk with sip_username ${sipUsername}`);
        return record;
    }
};
exports.LookupGatewayTrunkHandler = LookupGatewayTrunkHandler;
exports.LookupGatewayTrunkHandler = LookupGatewayTrunkHandler = __decorate([
    (0, cqrs_1.QueryHandler)(LookupGatewayTrunk),
    __param(0, (0, common_1.Inject)(read_model_store_port_1.READ_MODEL_STORE)),
    __metadata("design:paramtypes", [Object])
], LookupGatewayTrunkHandler);
//# sourceMappingURL=gateway.queries.js.map