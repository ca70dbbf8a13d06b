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
exports.InfrastructureModule = exports.REDIS = void 0;
const common_1 = require("@nestjs/common");
const logging_1 = require("../platform/logging/logging");
const app_config_1 = require("../platform/config/app-config");
const clickhouse_factory_1 = require("./clickhouse/clickhouse.factory");
const clickhouse_port_1 = require("./clickhouse/clickhouse.port");
const event_store_factory_1 = require("./event-store/event-store.factory");
const event_store_port_1 = require("./event-store/event-store.port");
const memory_key_usage_store_1 = require("./rate-limit/memory.key-usage-store");
const memory_rate_limiter_1 = require("./rate-limit/memory.rate-limiter");
const rate_limiter_port_1 = require("./rate-limit/rate-limiter.port");
const redis_key_usage_store_1 = require("./rate-limit/redis.key-usage-store");
const redis_rate_limiter_1 = require("./rate-limit/redis.rate-limiter");
const memory_read_model_store_1 = require("./read-model/memory.read-model-store");
const read_model_store_port_1 = require("./read-model/read-model-store.port");
const redis_read_model_store_1 = require("./read-model/redis.read-model-store");
const redis_client_1 = require("./redis/redis.client");
const provider_validator_factory_1 = require("./providers/provider-validator.factory");
const provider_validator_port_1 = require("./providers/provider-validator.port");
const key_vault_factory_1 = require("./secrets/key-vault.factory");
const master_key_1 = require("./secrets/master-key");
const secret_box_1 = require("./secrets/secret-box");
exports.REDIS = Symbol('Redis');
/**
 * Stores chosen by configuration: Redis when REDIS_URL is set (shared by every instance),
 * process memory otherwise; the event store from EVENT_STORE_URL (embedded PGlite when unset).
 */
let InfrastructureModule = class InfrastructureModule {
    redis;
    events;
    clickhouse;
    usage;
    constructor(redis, events, clickhouse, usage) {
        this.redis = redis;
        this.events = events;
        this.clickhouse = clickhouse;
        this.usage = usage;
    }
    /** Runs after every other module's shutdown hook (projections stop first). */
    async onApplicationShutdown() {
        // Usage counts still pending in this process are written before Redis closes.
        await Promise.all([this.events.close(), this.clickhouse.close(), this.usage.close()]);
        if (this.redis)
            await (0, redis_client_1.closeRedisClient)(this.redis);
    }
};
exports.InfrastructureModule = InfrastructureModule;
exports.InfrastructureModule = InfrastructureModule = __decorate([
    (0, common_1.Global)(),
    (0, common_1.Module)({
        providers: [
            {
                provide: exports.REDIS,
                inject: [app_config_1.APP_CONFIG, logging_1.AppLogger],
                useFactory: async (config, logging) => {
                    const logger = logging.for('redis');
                    if (!config.redisUrl)
                        return null;
                    let lastWarned = 0;
                    const redis = (0, redis_client_1.createRedisClient)(config.redisUrl, {
                        connectionName: 'trunkline',
                        onError: (err) => {
                            if (Date.now() - lastWarned < 5000)
                                return;
                            lastWarned = Date.now();
                            logger.warn({ err: { message: err.message } }, 'redis connection error');
                        },
                    });
                    await (0, redis_client_1.waitForReady)(redis, 10_000);
                    return redis;
                },
            },
            {
                provide: event_store_port_1.EVENT_STORE,
                inject: [app_config_1.APP_CONFIG, logging_1.AppLogger],
                useFactory: (config, logging) => (0, event_store_factory_1.createEventStore)({ url: config.eventStoreUrl ?? undefined, dataDir: config.dataDir, schema: config.eventStoreSchema, logger: logging.for('event-store') }),
            },
            {
                provide: read_model_store_port_1.READ_MODEL_STORE,
                inject: [app_config_1.APP_CONFIG, exports.REDIS],
                useFactory: (config, redis) => redis ? new redis_read_model_store_1.RedisReadModelStore(redis, (0, app_config_1.readModelNamespace)(config)) : new memory_read_model_store_1.MemoryReadModelStore(),
            },
            {
                provide: rate_limiter_port_1.RATE_LIMITER,
                inject: [app_config_1.APP_CONFIG, exports.REDIS],
                useFactory: (config, redis) => redis ? new redis_rate_limiter_1.RedisRateLimiter(redis, config.redisNamespace) : new memory_rate_limiter_1.MemoryRateLimiter(),
            },
            {
                provide: rate_limiter_port_1.KEY_USAGE_STORE,
                inject: [app_config_1.APP_CONFIG, exports.REDIS],
                useFactory: (config, redis) => redis ? new redis_key_usage_store_1.RedisKeyUsageStore(redis, config.redisNamespace) : new memory_key_usage_store_1.MemoryKeyUsageStore(),
            },
            {
                provide: secret_box_1.SECRET_BOX,
                inject: [app_config_1.APP_CONFIG, event_store_port_1.EVENT_STORE],
                useFactory: async (config, events) => {
                    const masterKey = await (0, master_key_1.loadMasterKey)({ masterKey: config.masterKey, dataDir: config.dataDir, embedded: !config.eventStoreUrl });
                    return new secret_box_1.SecretBox(masterKey, await (0, key_vault_factory_1.createKeyVault)(events));
                },
            },
            {
                provide: clickhouse_port_1.CLICKHOUSE,
                inject: [app_config_1.APP_CONFIG, logging_1.AppLogger],
                useFactory: async (config, logging) => {
                    // The factory applies the schema migrations before handing the executor out.
                    return (0, clickhouse_factory_1.createClickHouse)({ url: config.clickhouseUrl, dataDir: config.dataDir, logger: logging.for('clickhouse') });
                },
            },
            {
                provide: provider_validator_port_1.PROVIDER_VALIDATOR,
                inject: [app_config_1.APP_CONFIG],
                useFactory: (config) => (0, provider_validator_factory_1.createProviderValidator)({ mode: config.providerValidation, openaiApiBase: config.openaiApiBase, elevenlabsApiBase: config.elevenlabsApiBase }),
            },
        ],
        exports: [exports.REDIS, event_store_port_1.EVENT_STORE, read_model_store_port_1.READ_MODEL_STORE, rate_limiter_port_1.RATE_LIMITER, rate_limiter_port_1.KEY_USAGE_STORE, secret_box_1.SECRET_BOX, provider_validator_port_1.PROVIDER_VALIDATOR, clickhouse_port_1.CLICKHOUSE],
    }),
    __param(0, (0, common_1.Inject)(exports.REDIS)),
    __param(1, (0, common_1.Inject)(event_store_port_1.EVENT_STORE)),
    __param(2, (0, common_1.Inject)(clickhouse_port_1.CLICKHOUSE)),
    __param(3, (0, common_1.Inject)(rate_limiter_port_1.KEY_USAGE_STORE)),
    __metadata("design:paramtypes", [Object, Object, Object, Object])
], InfrastructureModule);
//# sourceMappingURL=infrastructure.module.js.map