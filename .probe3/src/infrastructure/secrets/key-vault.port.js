"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.DataKeyConflictError = exports.KEY_VAULT = void 0;
exports.checkVaultArgs = checkVaultArgs;
exports.KEY_VAULT = Symbol('KeyVault');
/** put() on an owner that already has another key ('exists') or whose key was destroyed. */
class DataKeyConflictError extends Error {
    ownerId;
    reason;
    constructor(ownerId, reason) {
        // Never the key itself: messages end up in logs.
        super(reason === 'exists' ? `a different data key is already stored for ${ownerId}` : `the data key of ${ownerId} was destroyed`);
        this.ownerId = ownerId;
        this.reason = reason;
        this.name = 'DataKeyConflictError';
    }
}
exports.DataKeyConflictError = DataKeyConflictError;
/** Owner ids are trunk ids: a bug, not a user error, when one is empty. */
function checkVaultArgs(ownerId, wrappedKey) {
    if (typeof ownerId !== 'string' || ownerId.length === 0)
        throw new Error('key vault: ownerId must be a non-empty string');
    if (wrappedKey !== undefined && (typeof wrappedKey !== 'string' || wrappedKey.length === 0)) {
        throw new Error('key vault: wrappedKey must be a non-empty string');
    }
}
//# sourceMappingURL=key-vault.port.js.map