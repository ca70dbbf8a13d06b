"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.SecretBox = exports.SECRET_BOX = exports.SecretUnavailableError = exports.SecretDestroyedError = void 0;
const node_crypto_1 = require("node:crypto");
const aes_gcm_1 = require("./aes-gcm");
const data_key_cache_1 = require("./data-key-cache");
const key_vault_port_1 = require("./key-vault.port");
const master_key_1 = require("./master-key");
const secret_errors_1 = require("./secret.errors");
var secret_errors_2 = require("./secret.errors");
Object.defineProperty(exports, "SecretDestroyedError", { enumerable: true, get: function () { return secret_errors_2.SecretDestroyedError; } });
Object.defineProperty(exports, "SecretUnavailableError", { enumerable: true, get: function () { return secret_errors_2.SecretUnavailableError; } });
exports.SECRET_BOX = Symbol('SecretBox');
const DATA_KEY_BYTES = 32;
/**
 * Envelope encryption of trunk secrets: each owner (trunk) has its own random data key, stored
 * in the vault wrapped under the master key (AES-256-GCM, AAD = owner id). Fields are encrypted
 * under the data key with AAD `<owner>:<field>`, so a ciphertext moved to another trunk or field
 * fails to decrypt. destroy() removes the data key: every copy of the owner's secrets, in every
 * event and backup, becomes unrecoverable. Plaintexts and keys never appear in errors or logs.
 */
class SecretBox {
    vault;
    masterKey;
    cache;
    /** Bumped by every destroy(): a key unwrapped from a read that began before it is not cached. */
    destroyEpoch = 0;
    constructor(masterKey, vault, options = {}) {
        this.vault = vault;
        if (masterKey.length !== master_key_1.MASTER_KEY_BYTES)
            throw new Error(`MASTER_KEY: must be ${master_key_1.MASTER_KEY_BYTES} bytes`);
        this.masterKey = (0, node_crypto_1.createSecretKey)(Buffer.from(masterKey)); // a copy: the caller may wipe theirs
        this.cache = new data_key_cache_1.DataKeyCache({ maxEntries: options.cacheEntries ?? 1000, ttlMs: options.cacheTtlMs ?? 60_000, now: options.now ?? Date.now });
    }
    /**
     * Gives the owner a data key. Idempotent: an owner that has one keeps it, so a retried command
     * reuses the key its first attempt stored. A destroyed owner never gets a new one.
     */
    async createDataKey(ownerId) {
        const existing = await this.dataKey(ownerId);
        if (existing === 'destroyed')
            throw new secret_errors_1.SecretDestroyedError(ownerId);
        if (existing)
            return;
        const raw = (0, node_crypto_1.randomBytes)(DATA_KEY_BYTES);
        const epoch = this.destroyEpoch;
        try {
            await this.vault.put(ownerId, (0, aes_gcm_1.encodeWrappedKey)((0, aes_gcm_1.seal)(this.masterKey, raw, ownerId)));
            // The caller encrypts with it next: spare that call a vault read.
            if (epoch === this.destroyEpoch)
                this.cache.set(ownerId, (0, node_crypto_1.createSecretKey)(raw));
        }
        catch (error) {
            if (!(error instanceof key_vault_port_1.DataKeyConflictError))
                throw error;
            if (error.reason === 'destroyed')
                throw new secret_errors_1.SecretDestroyedError(ownerId);
            await this.createDataKey(ownerId); // a concurrent call stored its key first: keep that one
        }
        finally {
            raw.fill(0);
        }
    }
    async encrypt(ownerId, field, plaintext) {
        const key = await this.requireKey(ownerId, field);
        const sealed = (0, aes_gcm_1.seal)(key, Buffer.from(plaintext, 'utf8'), `${ownerId}:${field}`);
        return { v: 1, alg: 'A256GCM', iv: sealed.iv.toString('base64'), ct: sealed.ct.toString('base64'), tag: sealed.tag.toString('base64') };
    }
    async decrypt(ownerId, field, secret) {
        if (secret?.v !== 1 || secret.alg !== 'A256GCM')
            throw new secret_errors_1.SecretUnavailableError(ownerId, field, 'unsupported format');
        const key = await this.requireKey(ownerId, field);
        const sealed = { iv: Buffer.from(secret.iv, 'base64'), ct: Buffer.from(secret.ct, 'base64'), tag: Buffer.from(secret.tag, 'base64') };
        if (sealed.iv.length !== aes_gcm_1.IV_BYTES || sealed.tag.length !== aes_gcm_1.TAG_BYTES)
            throw new secret_errors_1.SecretUnavailableError(ownerId, field, 'malformed');
        const plaintext = (0, aes_gcm_1.open)(key, sealed, `${ownerId}:${field}`);
        if (!plaintext)
            throw new secret_errors_1.SecretUnavailableError(ownerId, field, 'authentication failed');
        return plaintext.toString('utf8');
    }
    /** Crypto-shredding: the owner's secrets become unrecoverable. Idempotent. */
    async destroy(ownerId) {
        this.destroyEpoch += 1;
        this.cache.delete(ownerId);
        await this.vault.destroy(ownerId);
        this.cache.set(ownerId, 'destroyed');
    }
    async requireKey(ownerId, field) {
        const key = await this.dataKey(ownerId);
        if (key === 'destroyed')
            throw new secret_errors_1.SecretDestroyedError(ownerId, field);
        if (!key)
            throw new secret_errors_1.SecretUnavailableError(ownerId, field, 'no data key');
        return key;
    }
    async dataKey(ownerId) {
        const cached = this.cache.get(ownerId);
        if (cached)
            return cached;
        const epoch = this.destroyEpoch;
        const stored = await this.vault.get(ownerId);
        if (stored === null)
            return null;
        const value = stored === 'destroyed' ? 'destroyed' : this.unwrap(ownerId, stored);
        // A destroy() that ran while the vault was read may have made this answer stale.
        if (epoch === this.destroyEpoch)
            this.cache.set(ownerId, value);
        return value;
    }
    unwrap(ownerId, wrapped) {
        const sealed = (0, aes_gcm_1.decodeWrappedKey)(wrapped);
        const raw = sealed && (0, aes_gcm_1.open)(this.masterKey, sealed, ownerId);
        // Wrong master key, or a wrapped key copied from another owner.
        if (!raw || raw.length !== DATA_KEY_BYTES)
            throw new secret_errors_1.SecretUnavailableError(ownerId, undefined, 'data key cannot be unwrapped');
        const key = (0, node_crypto_1.createSecretKey)(raw);
        raw.fill(0);
        return key;
    }
}
exports.SecretBox = SecretBox;
//# sourceMappingURL=secret-box.js.map