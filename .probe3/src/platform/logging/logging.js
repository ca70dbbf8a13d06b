"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.NestPinoLogger = exports.AppLogger = exports.REDACTED_PATHS = void 0;
exports.createRootLogger = createRootLogger;
const pino_1 = __importDefault(require("pino"));
/**
 * Fields that may hold a secret, wherever they appear in a logged object: censored by pino
 * before serialisation, so no code path can log them by accident.
 */
exports.REDACTED_PATHS = [
    'req.headers.authorization',
    'req.headers.cookie',
    'headers.authorization',
    '*.authorization',
    '*.password',
    '*.sip_password',
    '*.openai_api_key',
    '*.elevenlabs_api_key',
    '*.api_key',
    '*.key',
    '*.secret',
    '*.master_key',
    'body',
    'req.body',
];
/** The one root logger; request lines carry `request_id` through Fastify's per-request child. */
function createRootLogger(level, stream) {
    const options = { level, redact: { paths: exports.REDACTED_PATHS, censor: '[redacted]' }, base: { service: 'trunkline' } };
    return stream ? (0, pino_1.default)(options, stream) : (0, pino_1.default)(options);
}
/** A logger for one part of the app, as an injectable class (DI token). */
class AppLogger {
    root;
    constructor(root) {
        this.root = root;
    }
    for(context) {
        return this.root.child({ context });
    }
}
exports.AppLogger = AppLogger;
/** Nest's own messages (start-up, route mapping) through the same pino root. */
class NestPinoLogger {
    logger;
    constructor(root) {
        this.logger = root.child({ context: 'nest' });
    }
    log(message, context) {
        this.logger.debug({ nest_context: context }, String(message));
    }
    error(message, trace, context) {
        this.logger.error({ nest_context: context, trace }, String(message));
    }
    warn(message, context) {
        this.logger.warn({ nest_context: context }, String(message));
    }
    debug(message, context) {
        this.logger.debug({ nest_context: context }, String(message));
    }
    verbose(message, context) {
        this.logger.trace({ nest_context: context }, String(message));
    }
}
exports.NestPinoLogger = NestPinoLogger;
//# sourceMappingURL=logging.js.map