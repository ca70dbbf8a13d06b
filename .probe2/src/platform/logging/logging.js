"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.REDACTED_PATHS = void 0;
exports.loggingParams = loggingParams;
const request_id_1 = require("../http/request-id");
/**
 * Fields that may hold a secret, wherever they appear in a logged object: censored by pino
 * before serialisation, so no code path can log them by accident.
 */
exports.REDACTED_PATHS = [
    'req.headers.authorization',
    'req.headers.cookie',
    'req.headers["x-api-key"]',
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
function loggingParams(level, stream) {
    return {
        pinoHttp: [
            {
                level,
                genReqId: (req) => (0, request_id_1.requestIdOf)(req),
                redact: { paths: exports.REDACTED_PATHS, censor: '[redacted]' },
                customLogLevel: (_req, res, err) => err || res.statusCode >= 500 ? 'error' : res.statusCode >= 400 ? 'info' : 'info',
                serializers: {
                    // Paths only: query strings can carry user data; ids are in the path anyway.
                    req: (req) => ({ id: req.id, method: req.method, path: req.url?.split('?')[0] }),
                    res: (res) => ({ status: res.statusCode }),
                },
                customAttributeKeys: { reqId: 'request_id' },
            },
            stream,
        ].filter((x) => x !== undefined),
    };
}
//# sourceMappingURL=logging.js.map