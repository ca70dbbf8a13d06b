"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.KEY_USAGE_STORE = exports.RATE_LIMITER = void 0;
exports.RATE_LIMITER = Symbol('RateLimiter');
exports.KEY_USAGE_STORE = Symbol('KeyUsageStore');
//# sourceMappingURL=rate-limiter.port.js.map