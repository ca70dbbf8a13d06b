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
Object.defineProperty(exports, "__esModule", { value: true });
exports.Reservations = void 0;
const common_1 = require("@nestjs/common");
const domain_error_1 = require("../../shared/domain-error");
const command_runner_1 = require("../command-runner");
const reservation_decider_1 = require("./domain/reservation.decider");
let Reservations = class Reservations {
    runner;
    constructor(runner) {
        this.runner = runner;
    }
    /**
     * Holds the value for ownerId, or throws 409 conflict. A holder left behind by a crash between
     * reserving and creating (or deleting and releasing) is taken over once `isStale` says so.
     */
    async reserve(request, isStale) {
        const decider = (0, reservation_decider_1.reservationDecider)(request.label);
        try {
            await this.runner.run(request.stream, decider, { type: 'Reserve', data: { ownerId: request.ownerId, at: request.at } }, request.metadata);
        }
        catch (error) {
            if (!(error instanceof domain_error_1.DomainError) || error.code !== 'conflict')
                throw error;
            const holder = await this.holderOf(request.stream);
            if (!holder || !(await isStale(holder.id, holder.since)))
                throw new domain_error_1.DomainError('conflict', `${request.label} is already in use`);
            await this.runner.run(request.stream, decider, { type: 'Reserve', data: { ownerId: request.ownerId, at: request.at, takeOverFrom: holder.id } }, request.metadata);
        }
    }
    async release(request) {
        await this.runner.run(request.stream, (0, reservation_decider_1.reservationDecider)(request.label), { type: 'Release', data: { ownerId: request.ownerId, at: request.at } }, request.metadata);
    }
    async holderOf(stream) {
        const { state } = await this.runner.load(stream, (0, reservation_decider_1.reservationDecider)(''));
        return state.holder && state.since ? { id: state.holder, since: new Date(state.since) } : null;
    }
};
exports.Reservations = Reservations;
exports.Reservations = Reservations = __decorate([
    (0, common_1.Injectable)(),
    __metadata("design:paramtypes", [command_runner_1.CommandRunner])
], Reservations);
//# sourceMappingURL=reservation.service.js.map