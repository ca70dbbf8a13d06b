"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.VALID = exports.PROVIDER_VALIDATOR = void 0;
exports.rejected = rejected;
exports.unreachable = unreachable;
exports.PROVIDER_VALIDATOR = Symbol('ProviderValidator');
exports.VALID = Object.freeze({ ok: true });
function rejected(field, message) {
    return { ok: false, reason: 'rejected', field, message };
}
function unreachable(message) {
    return { ok: false, reason: 'unreachable', message };
}
//# sourceMappingURL=provider-validator.port.js.map