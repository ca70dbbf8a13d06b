"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.TAG_BYTES = exports.IV_BYTES = void 0;
exports.seal = seal;
exports.open = open;
exports.encodeWrappedKey = encodeWrappedKey;
exports.decodeWrappedKey = decodeWrappedKey;
const node_crypto_1 = require("node:crypto");
/** AES-256-GCM with a random 96-bit IV per message and the full 128-bit tag. */
exports.IV_BYTES = 12;
exports.TAG_BYTES = 16;
const ALGORITHM = 'aes-256-gcm';
/**
 * Random IVs are safe here: each data key encrypts a handful of fields over a trunk's life, far
 * below the 2^32 messages per key after which random 96-bit IVs risk a collision.
 */
function seal(key, plaintext, aad) {
    const iv = (0, node_crypto_1.randomBytes)(exports.IV_BYTES);
    const cipher = (0, node_crypto_1.createCipheriv)(ALGORITHM, key, iv, { authTagLength: exports.TAG_BYTES });
    cipher.setAAD(Buffer.from(aad, 'utf8'));
    const ct = Buffer.concat([cipher.update(plaintext), cipher.final()]);
    return { iv, ct, tag: cipher.getAuthTag() };
}
/** Null when authentication fails: wrong key, wrong AAD, or altered iv/ct/tag. */
function open(key, sealed, aad) {
    if (sealed.iv.length !== exports.IV_BYTES || sealed.tag.length !== exports.TAG_BYTES)
        return null;
    try {
        const decipher = (0, node_crypto_1.createDecipheriv)(ALGORITHM, key, sealed.iv, { authTagLength: exports.TAG_BYTES });
        decipher.setAAD(Buffer.from(aad, 'utf8'));
        decipher.setAuthTag(sealed.tag);
        return Buffer.concat([decipher.update(sealed.ct), decipher.final()]);
    }
    catch {
        return null;
    }
}
/** A wrapped data key as the vault stores it: `v1.<iv>.<ct>.<tag>`, each part base64url. */
function encodeWrappedKey(sealed) {
    return ['v1', ...[sealed.iv, sealed.ct, sealed.tag].map((part) => part.toString('base64url'))].join('.');
}
const WRAPPED_KEY = /^v1\.([A-Za-z0-9_-]+)\.([A-Za-z0-9_-]+)\.([A-Za-z0-9_-]+)$/;
function decodeWrappedKey(text) {
    const match = WRAPPED_KEY.exec(text);
    if (!match)
        return null;
    const [iv, ct, tag] = match.slice(1).map((part) => Buffer.from(part, 'base64url'));
    return { iv, ct, tag };
}
//# sourceMappingURL=aes-gcm.js.map