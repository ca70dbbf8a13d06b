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
exports.CreateAccountHandler = exports.CreateAccount = void 0;
const cqrs_1 = require("@nestjs/cqrs");
const common_1 = require("@nestjs/common");
const read_models_service_1 = require("../../projections/read-models.service");
const clock_1 = require("../../shared/clock");
const ids_1 = require("../../shared/ids");
const command_runner_1 = require("../command-runner");
const account_decider_1 = require("./domain/account.decider");
class CreateAccount {
    name;
    metadata;
    constructor(name, metadata) {
        this.name = name;
        this.metadata = metadata;
    }
}
exports.CreateAccount = CreateAccount;
let CreateAccountHandler = class CreateAccountHandler {
    runner;
    readModels;
    clock;
    constructor(runner, readModels, clock) {
        this.runner = runner;
        this.readModels = readModels;
        this.clock = clock;
    }
    async execute({ name, metadata }) {
        const accountId = (0, ids_1.newId)('acct');
        const outcome = await this.runner.run((0, account_decider_1.accountStream)(accountId), account_decider_1.accountDecider, { type: 'CreateAccount', data: { accountId, name: name.trim(), at: this.clock.now() } }, metadata);
        await this.readModels.waitFor(outcome.position);
        const created = outcome.events[0].data;
        return { id: created.account_id, name: created.name, created_at: created.created_at };
    }
};
exports.CreateAccountHandler = CreateAccountHandler;
exports.CreateAccountHandler = CreateAccountHandler = __decorate([
    (0, cqrs_1.CommandHandler)(CreateAccount),
    __param(2, (0, common_1.Inject)(clock_1.CLOCK)),
    __metadata("design:paramtypes", [command_runner_1.CommandRunner,
        read_models_service_1.ReadModels, Object])
], CreateAccountHandler);
//# sourceMappingURL=create-account.handler.js.map