"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.isEncryptedSecret = isEncryptedSecret;
function isEncryptedSecret(value) {
    return typeof value === 'object' && value !== null && value.alg === 'A256GCM' && typeof value.ct === 'string';
}
//# sourceMappingURL=encrypted-secret.js.map