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
exports.DeleteTrunkHandler = exports.DeleteTrunk = void 0;
const common_1 = require("@nestjs/common");
const cqrs_1 = require("@nestjs/cqrs");
const secret_box_1 = require("../../infrastructure/secrets/secret-box");
const read_models_service_1 = require("../../projections/read-models.service");
const clock_1 = require("../../shared/clock");
const command_runner_1 = require("../command-runner");
const reservation_service_1 = require("../reservations/reservation.service");
const trunk_decider_1 = require("./domain/trunk.decider");
const trunk_support_1 = require("./trunk-support");
class DeleteTrunk {
    trunkId;
    accountId;
    metadata;
    constructor(trunkId, accountId, metadata) {
        this.trunkId = trunkId;
        this.accountId = accountId;
        this.metadata = metadata;
    }
}
exports.DeleteTrunk = DeleteTrunk;
/**
 * TrunkDeleted first (the fact), then the names are freed and the data key destroyed: from then
 * on the secrets in the history are unrecoverable. A crash between the steps leaves reservations
 * that the next reserver takes over (their holder is deleted) and a key that a retry destroys.
 */
let DeleteTrunkHandler = class DeleteTrunkHandler {
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
    async execute({ trunkId, accountId, metadata }) {
        const at = this.clock.now();
        const outcome = await this.runner.run((0, trunk_decider_1.trunkStream)(trunkId), trunk_decider_1.trunkDecider, { type: 'DeleteTrunk', data: { accountId, at } }, metadata);
        const deleted = outcome.events[0];
        if (deleted?.type !== 'TrunkDeleted')
            throw new Error('unexpected event');
        await Promise.all([
            this.reservations.release(this.support.usernameReservation(deleted.data.sip_username, trunkId, at, metadata)),
            this.reservations.release(this.support.nameReservation(accountId, deleted.data.name, trunkId, at, metadata)),
        ]);
        await this.secrets.destroy(trunkId);
        await this.readModels.waitFor(outcome.position);
    }
};
exports.DeleteTrunkHandler = DeleteTrunkHandler;
exports.DeleteTrunkHandler = DeleteTrunkHandler = __decorate([
    (0, cqrs_1.CommandHandler)(DeleteTrunk),
    __param(4, (0, common_1.Inject)(secret_box_1.SECRET_BOX)),
    __param(5, (0, common_1.Inject)(clock_1.CLOCK)),
    __metadata("design:paramtypes", [command_runner_1.CommandRunner,
        reservation_service_1.Reservations,
        trunk_support_1.TrunkSupport,
        read_models_service_1.ReadModels,
        secret_box_1.SecretBox, Object])
], DeleteTrunkHandler);
//# sourceMappingURL=delete-trunk.handler.js.map