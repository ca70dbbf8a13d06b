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
exports.HealthController = void 0;
const common_1 = require("@nestjs/common");
const swagger_1 = require("@nestjs/swagger");
const event_store_port_1 = require("../../infrastructure/event-store/event-store.port");
const read_model_store_port_1 = require("../../infrastructure/read-model/read-model-store.port");
const read_models_service_1 = require("../../projections/read-models.service");
const CHECK_TIMEOUT_MS = 2000;
let HealthController = class HealthController {
    events;
    readModels;
    projections;
    constructor(events, readModels, projections) {
        this.events = events;
        this.readModels = readModels;
        this.projections = projections;
    }
    /** Liveness: the process answers. */
    health() {
        return { status: 'ok' };
    }
    /** Readiness: every configured store answers and the read models have caught up. */
    async ready(reply) {
        const [eventStore, readModelStore] = await Promise.all([check(() => this.events.ping()), check(() => this.readModels.ping())]);
        const projection = await withTimeout(this.projections.status()).catch(() => null);
        const checks = { event_store: eventStore, read_model_store: readModelStore, projections: projection ? (projection.caughtUp ? 'ok' : 'catching_up') : 'error' };
        const ready = eventStore === 'ok' && readModelStore === 'ok' && checks.projections === 'ok';
        const body = { status: ready ? 'ready' : 'unavailable', checks, projections: projection ? [{ name: projection.name, lag_ms: projection.lagMs, checkpoint: projection.checkpoint }] : [] };
        if (ready)
            return body;
        void reply.status(503).header('Retry-After', '1');
        return { error: { code: 'service_unavailable', message: 'Not ready', status: 503 }, ...body };
    }
};
exports.HealthController = HealthController;
__decorate([
    (0, common_1.Get)('healthz'),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", []),
    __metadata("design:returntype", Object)
], HealthController.prototype, "health", null);
__decorate([
    (0, common_1.Get)('readyz'),
    __param(0, (0, common_1.Res)({ passthrough: true })),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [Object]),
    __metadata("design:returntype", Promise)
], HealthController.prototype, "ready", null);
exports.HealthController = HealthController = __decorate([
    (0, swagger_1.ApiExcludeController)(),
    (0, common_1.Controller)(),
    __param(0, (0, common_1.Inject)(event_store_port_1.EVENT_STORE)),
    __param(1, (0, common_1.Inject)(read_model_store_port_1.READ_MODEL_STORE)),
    __metadata("design:paramtypes", [Object, Object, read_models_service_1.ReadModels])
], HealthController);
async function check(probe) {
    try {
        await withTimeout(probe());
        return 'ok';
    }
    catch {
        return 'error';
    }
}
function withTimeout(promise) {
    return Promise.race([promise, new Promise((_, reject) => setTimeout(() => reject(new Error('timeout')), CHECK_TIMEOUT_MS).unref())]);
}
//# sourceMappingURL=health.controller.js.map