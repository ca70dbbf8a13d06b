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
exports.ReadModels = void 0;
exports.buildReadModelProjections = buildReadModelProjections;
const common_1 = require("@nestjs/common");
const logging_1 = require("../platform/logging/logging");
const event_store_port_1 = require("../infrastructure/event-store/event-store.port");
const read_model_store_port_1 = require("../infrastructure/read-model/read-model-store.port");
const app_config_1 = require("../platform/config/app-config");
const accounts_projection_1 = require("./accounts/accounts.projection");
const api_keys_projection_1 = require("./api-keys/api-keys.projection");
const clickhouse_port_1 = require("../infrastructure/clickhouse/clickhouse.port");
const secret_box_1 = require("../infrastructure/secrets/secret-box");
const trunk_dimension_projector_1 = require("./clickhouse/trunk-dimension.projector");
const trunks_projection_1 = require("./trunks/trunks.projection");
const projection_runner_1 = require("./projection-runner");
/** Every projection kept in the read-model store, in the order they apply each event. */
function buildReadModelProjections(secrets, sipDomain) {
    return [accounts_projection_1.accountsProjection, api_keys_projection_1.apiKeysProjection, (0, trunks_projection_1.trunksProjection)(secrets, sipDomain)];
}
/** The read models: Redis (or memory) by one checkpointed runner, the trunk dimension in ClickHouse by another. */
let ReadModels = class ReadModels {
    config;
    logger;
    runner;
    trunkDimension;
    constructor(events, store, secrets, clickhouse, config, logging) {
        this.config = config;
        this.logger = logging.for('projections');
        this.runner = new projection_runner_1.ProjectionRunner('read-models', buildReadModelProjections(secrets, config.sipDomain), store, events);
        this.trunkDimension = new trunk_dimension_projector_1.TrunkDimensionProjector(events, clickhouse);
    }
    async onApplicationBootstrap() {
        await Promise.all([this.runner.start(), this.trunkDimension.start()]);
    }
    /** Before the stores close (their modules close in onApplicationShutdown). */
    async beforeApplicationShutdown() {
        await Promise.all([this.runner.stop(), this.trunkDimension.stop()]);
    }
    /**
     * Read-your-writes: a 2xx write returns once its events are in the read models. Past the
     * bound the write still succeeds (it is durable); the delay is logged.
     */
    async waitFor(position) {
        if (position === null)
            return;
        const timeout = this.config.consistencyTimeoutMs;
        const reached = (await Promise.all([this.runner.waitFor(position, timeout), this.trunkDimension.waitFor(position, timeout)])).every(Boolean);
        if (!reached)
            this.logger.warn({ timeout_ms: this.config.consistencyTimeoutMs }, 'read models lag behind a write');
    }
    status() {
        return this.runner.status();
    }
};
exports.ReadModels = ReadModels;
exports.ReadModels = ReadModels = __decorate([
    (0, common_1.Injectable)(),
    __param(0, (0, common_1.Inject)(event_store_port_1.EVENT_STORE)),
    __param(1, (0, common_1.Inject)(read_model_store_port_1.READ_MODEL_STORE)),
    __param(2, (0, common_1.Inject)(secret_box_1.SECRET_BOX)),
    __param(3, (0, common_1.Inject)(clickhouse_port_1.CLICKHOUSE)),
    __param(4, (0, common_1.Inject)(app_config_1.APP_CONFIG)),
    __metadata("design:paramtypes", [Object, Object, secret_box_1.SecretBox, Object, Object, logging_1.AppLogger])
], ReadModels);
//# sourceMappingURL=read-models.service.js.map