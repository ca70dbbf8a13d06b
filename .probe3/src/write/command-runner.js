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
exports.CommandRunner = void 0;
const common_1 = require("@nestjs/common");
const decider_1 = require("../shared/decider");
const domain_error_1 = require("../shared/domain-error");
const ids_1 = require("../shared/ids");
const event_store_port_1 = require("../infrastructure/event-store/event-store.port");
/** Enough for dozens of concurrent writers on one stream; each retry backs off with jitter. */
const MAX_ATTEMPTS = 25;
/**
 * read → fold → decide → append with the expected version, retried a bounded number of times on
 * a version conflict (another writer got there first; deciding again on the fresh state is safe
 * because deciders are pure).
 */
let CommandRunner = class CommandRunner {
    store;
    constructor(store) {
        this.store = store;
    }
    /** The current state of a stream and the revision of its last event (-1: no stream). */
    async load(streamId, decider) {
        const stored = await this.store.readStream(streamId);
        return { state: (0, decider_1.fold)(decider, stored.map((e) => ({ type: e.type, data: e.data }))), revision: stored.length - 1 };
    }
    async run(streamId, decider, command, metadata, options = {}) {
        for (let attempt = 1;; attempt++) {
            const { state, revision } = await this.load(streamId, decider);
            const events = decider.decide(command, state);
            if (events.length === 0)
                return { events, state, position: null, revision };
            const expected = options.expected ?? (revision < 0 ? 'no_stream' : revision);
            try {
                const result = await this.store.append(streamId, events.map((e) => ({ id: (0, ids_1.newEventId)(), type: e.type, data: e.data, metadata })), expected);
                return { events, state: events.reduce(decider.evolve, state), position: result.position, revision: result.nextExpectedVersion };
            }
            catch (error) {
                if (!(error instanceof event_store_port_1.VersionConflictError))
                    throw error;
                if (options.expected !== undefined)
                    throw new domain_error_1.DomainError('precondition_failed', `${streamId} has changed since version ${String(options.expected)}`);
                if (attempt >= MAX_ATTEMPTS)
                    throw new domain_error_1.DomainError('conflict', 'Too many concurrent changes to the same resource; retry');
                await new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(50, 2 * attempt)));
            }
        }
    }
};
exports.CommandRunner = CommandRunner;
exports.CommandRunner = CommandRunner = __decorate([
    (0, common_1.Injectable)(),
    __param(0, (0, common_1.Inject)(event_store_port_1.EVENT_STORE)),
    __metadata("design:paramtypes", [Object])
], CommandRunner);
//# sourceMappingURL=command-runner.js.map