"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.SecretUnavailableError = exports.SecretDestroyedError = void 0;
/**
 * Errors of the SecretBox. Messages name the owner and field, never a plaintext or a key.
 * A projection that meets SecretDestroyedError can treat the secret as gone for good;
 * SecretUnavailableError is a bug or a configuration error (wrong MASTER_KEY), not an outage.
 */
class SecretDestroyedError extends Error {
    ownerId;
    field;
    constructor(ownerId, field) {
        super(`the data key of ${ownerId} was destroyed: ${field ?? 'its secrets are'} unrecoverable`);
        this.ownerId = ownerId;
        this.field = field;
        this.name = 'SecretDestroyedError';
    }
}
exports.SecretDestroyedError = SecretDestroyedError;
class SecretUnavailableError extends Error {
    ownerId;
    field;
    reason;
    constructor(ownerId, field, reason) {
        super(`secret ${field ? `${field} of ` : 'of '}${ownerId} is unavailable: ${reason}`);
        this.ownerId = ownerId;
        this.field = field;
        this.reason = reason;
        this.name = 'SecretUnavailableError';
    }
}
exports.SecretUnavailableError = SecretUnavailableError;
//# sourceMappingURL=secret.errors.js.map