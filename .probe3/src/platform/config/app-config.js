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
exports.readModelNamespace = exports.APP_CONFIG = exports.ConfigError = void 0;
exports.loadConfig = loadConfig;
require("reflect-metadata");
const node_path_1 = require("node:path");
const class_transformer_1 = require("class-transformer");
const class_validator_1 = require("class-validator");
const class_transformer_2 = require("class-transformer");
/** Environment variables as decisions.md names them. A bad value stops start-up, naming it. */
class Environment {
    PORT;
    HOST;
    DATA_DIR;
    APP_ENV;
    ADMIN_API_KEY;
    EVENT_STORE_URL;
    EVENT_STORE_SCHEMA;
    CLICKHOUSE_URL;
    REDIS_URL;
    REDIS_NAMESPACE;
    TLS_MODE;
    TLS_CERT_FILE;
    TLS_KEY_FILE;
    SIP_DOMAIN;
    RATE_LIMIT_PER_MINUTE;
    MASTER_KEY;
    PROVIDER_VALIDATION;
    OPENAI_API_BASE;
    ELEVENLABS_API_BASE;
    WEBHOOK_ALLOW_PRIVATE;
    LOG_LEVEL;
    BODY_LIMIT_BYTES;
    CONSISTENCY_TIMEOUT_MS;
}
__decorate([
    (0, class_validator_1.IsOptional)(),
    (0, class_transformer_2.Type)(() => Number),
    (0, class_validator_1.IsInt)(),
    (0, class_validator_1.Min)(0),
    (0, class_validator_1.Max)(65535),
    __metadata("design:type", Number)
], Environment.prototype, "PORT", void 0);
__decorate([
    (0, class_validator_1.IsOptional)(),
    (0, class_validator_1.IsString)(),
    __metadata("design:type", String)
], Environment.prototype, "HOST", void 0);
__decorate([
    (0, class_validator_1.IsOptional)(),
    (0, class_validator_1.IsString)(),
    __metadata("design:type", String)
], Environment.prototype, "DATA_DIR", void 0);
__decorate([
    (0, class_validator_1.IsOptional)(),
    (0, class_validator_1.IsIn)(['live', 'test']),
    __metadata("design:type", String)
], Environment.prototype, "APP_ENV", void 0);
__decorate([
    (0, class_validator_1.IsOptional)(),
    (0, class_validator_1.Matches)(/^sk_(live|test)_[A-Za-z0-9]{32}$/, { message: 'ADMIN_API_KEY must be sk_live_ or sk_test_ followed by 32 base62 characters' }),
    __metadata("design:type", String)
], Environment.prototype, "ADMIN_API_KEY", void 0);
__decorate([
    (0, class_validator_1.IsOptional)(),
    (0, class_validator_1.Matches)(/^(postgres|postgresql|esdb|esdb\+discover|kurrentdb):\/\//, { message: 'EVENT_STORE_URL must start with postgres://, esdb:// or kurrentdb://' }),
    __metadata("design:type", String)
], Environment.prototype, "EVENT_STORE_URL", void 0);
__decorate([
    (0, class_validator_1.IsOptional)(),
    (0, class_validator_1.Matches)(/^[a-z_][a-z0-9_]{0,62}$/, { message: 'EVENT_STORE_SCHEMA must be a lower-case SQL identifier' }),
    __metadata("design:type", String)
], Environment.prototype, "EVENT_STORE_SCHEMA", void 0);
__decorate([
    (0, class_validator_1.IsOptional)(),
    (0, class_validator_1.Matches)(/^https?:\/\//, { message: 'CLICKHOUSE_URL must be an http(s):// URL' }),
    __metadata("design:type", String)
], Environment.prototype, "CLICKHOUSE_URL", void 0);
__decorate([
    (0, class_validator_1.IsOptional)(),
    (0, class_validator_1.Matches)(/^rediss?:\/\//, { message: 'REDIS_URL must start with redis:// or rediss://' }),
    __metadata("design:type", String)
], Environment.prototype, "REDIS_URL", void 0);
__decorate([
    (0, class_validator_1.IsOptional)(),
    (0, class_validator_1.IsString)(),
    __metadata("design:type", String)
], Environment.prototype, "REDIS_NAMESPACE", void 0);
__decorate([
    (0, class_validator_1.IsOptional)(),
    (0, class_validator_1.IsIn)(['native', 'proxy']),
    __metadata("design:type", String)
], Environment.prototype, "TLS_MODE", void 0);
__decorate([
    (0, class_validator_1.IsOptional)(),
    (0, class_validator_1.IsString)(),
    __metadata("design:type", String)
], Environment.prototype, "TLS_CERT_FILE", void 0);
__decorate([
    (0, class_validator_1.IsOptional)(),
    (0, class_validator_1.IsString)(),
    __metadata("design:type", String)
], Environment.prototype, "TLS_KEY_FILE", void 0);
__decorate([
    (0, class_validator_1.IsOptional)(),
    (0, class_validator_1.Matches)(/^[A-Za-z0-9.-]+$/, { message: 'SIP_DOMAIN must be a host name' }),
    __metadata("design:type", String)
], Environment.prototype, "SIP_DOMAIN", void 0);
__decorate([
    (0, class_validator_1.IsOptional)(),
    (0, class_transformer_2.Type)(() => Number),
    (0, class_validator_1.IsInt)(),
    (0, class_validator_1.Min)(1),
    __metadata("design:type", Number)
], Environment.prototype, "RATE_LIMIT_PER_MINUTE", void 0);
__decorate([
    (0, class_validator_1.IsOptional)(),
    (0, class_validator_1.IsString)(),
    (0, class_validator_1.MinLength)(32, { message: 'MASTER_KEY must be at least 32 characters (base64 of 32 bytes)' }),
    __metadata("design:type", String)
], Environment.prototype, "MASTER_KEY", void 0);
__decorate([
    (0, class_validator_1.IsOptional)(),
    (0, class_validator_1.IsIn)(['live', 'format']),
    __metadata("design:type", String)
], Environment.prototype, "PROVIDER_VALIDATION", void 0);
__decorate([
    (0, class_validator_1.IsOptional)(),
    (0, class_validator_1.IsString)(),
    __metadata("design:type", String)
], Environment.prototype, "OPENAI_API_BASE", void 0);
__decorate([
    (0, class_validator_1.IsOptional)(),
    (0, class_validator_1.IsString)(),
    __metadata("design:type", String)
], Environment.prototype, "ELEVENLABS_API_BASE", void 0);
__decorate([
    (0, class_validator_1.IsOptional)(),
    (0, class_validator_1.IsIn)(['true', 'false']),
    __metadata("design:type", String)
], Environment.prototype, "WEBHOOK_ALLOW_PRIVATE", void 0);
__decorate([
    (0, class_validator_1.IsOptional)(),
    (0, class_validator_1.IsIn)(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']),
    __metadata("design:type", String)
], Environment.prototype, "LOG_LEVEL", void 0);
__decorate([
    (0, class_validator_1.IsOptional)(),
    (0, class_transformer_2.Type)(() => Number),
    (0, class_validator_1.IsInt)(),
    (0, class_validator_1.Min)(1024),
    __metadata("design:type", Number)
], Environment.prototype, "BODY_LIMIT_BYTES", void 0);
__decorate([
    (0, class_validator_1.IsOptional)(),
    (0, class_transformer_2.Type)(() => Number),
    (0, class_validator_1.IsInt)(),
    (0, class_validator_1.Min)(100),
    __metadata("design:type", Number)
], Environment.prototype, "CONSISTENCY_TIMEOUT_MS", void 0);
class ConfigError extends Error {
    problems;
    constructor(problems) {
        super(`invalid configuration:\n  ${problems.join('\n  ')}`);
        this.problems = problems;
        this.name = 'ConfigError';
    }
}
exports.ConfigError = ConfigError;
function loadConfig(env = process.env) {
    const raw = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
    const parsed = (0, class_transformer_1.plainToInstance)(Environment, raw, { enableImplicitConversion: false });
    const errors = (0, class_validator_1.validateSync)(parsed, { skipMissingProperties: false, forbidUnknownValues: false });
    if (errors.length > 0) {
        throw new ConfigError(errors.map((e) => `${e.property}: ${Object.values(e.constraints ?? {}).join('; ')}`));
    }
    const embedded = !parsed.EVENT_STORE_URL;
    if (!embedded && !parsed.MASTER_KEY)
        throw new ConfigError(['MASTER_KEY: required when EVENT_STORE_URL is set']);
    if ((parsed.TLS_CERT_FILE === undefined) !== (parsed.TLS_KEY_FILE === undefined)) {
        throw new ConfigError(['TLS_CERT_FILE/TLS_KEY_FILE: set both or neither']);
    }
    return {
        port: parsed.PORT ?? 8443,
        host: parsed.HOST ?? '0.0.0.0',
        dataDir: (0, node_path_1.resolve)(parsed.DATA_DIR ?? './.data'),
        appEnv: parsed.APP_ENV ?? 'live',
        adminApiKey: parsed.ADMIN_API_KEY ?? null,
        eventStoreUrl: parsed.EVENT_STORE_URL ?? null,
        eventStoreSchema: parsed.EVENT_STORE_SCHEMA ?? 'trunkline',
        clickhouseUrl: parsed.CLICKHOUSE_URL ?? null,
        redisUrl: parsed.REDIS_URL ?? null,
        redisNamespace: parsed.REDIS_NAMESPACE ?? 'tl:',
        tls: { mode: parsed.TLS_MODE ?? 'native', certFile: parsed.TLS_CERT_FILE ?? null, keyFile: parsed.TLS_KEY_FILE ?? null },
        sipDomain: parsed.SIP_DOMAIN ?? 'sip.trunkline.local',
        rateLimitPerMinute: parsed.RATE_LIMIT_PER_MINUTE ?? 6000,
        masterKey: parsed.MASTER_KEY ?? null,
        providerValidation: parsed.PROVIDER_VALIDATION ?? (embedded ? 'format' : 'live'),
        openaiApiBase: parsed.OPENAI_API_BASE ?? 'https://api.openai.com/v1',
        elevenlabsApiBase: parsed.ELEVENLABS_API_BASE ?? 'https://api.elevenlabs.io/v1',
        webhookAllowPrivate: parsed.WEBHOOK_ALLOW_PRIVATE === 'true',
        logLevel: parsed.LOG_LEVEL ?? 'info',
        bodyLimitBytes: parsed.BODY_LIMIT_BYTES ?? 1024 * 1024,
        consistencyTimeoutMs: parsed.CONSISTENCY_TIMEOUT_MS ?? 5000,
    };
}
exports.APP_CONFIG = Symbol('AppConfig');
/**
 * Read models live under their own prefix, so a rebuild (which clears its namespace) never
 * touches rate-limit counters or key usage.
 */
const readModelNamespace = (config) => `${config.redisNamespace}rm:`;
exports.readModelNamespace = readModelNamespace;
//# sourceMappingURL=app-config.js.map