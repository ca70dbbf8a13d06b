"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.keyHint = void 0;
exports.generateApiKey = generateApiKey;
exports.environmentOfKey = environmentOfKey;
exports.hashApiKey = hashApiKey;
const node_crypto_1 = require("node:crypto");
const ids_1 = require("../../shared/ids");
const KEY_PATTERN = /^sk_(live|test)_[A-Za-z0-9]{32}$/;
function generateApiKey(environment) {
    return `sk_${environment}_${(0, ids_1.randomBase62)(32)}`;
}
/** The environment a well-formed key belongs to, or null for anything else. */
function environmentOfKey(key) {
    const match = KEY_PATTERN.exec(key);
    return match ? match[1] : null;
}
/**
 * Keys carry ~190 bits of entropy, so a fast hash is enough (no password stretching needed) and
 * the lookup by hash reveals nothing useful through timing.
 */
function hashApiKey(key) {
    return (0, node_crypto_1.createHash)('sha256').update(key).digest('hex');
}
const keyHint = (key) => key.slice(-4);
exports.keyHint = keyHint;
//# sourceMappingURL=api-key.js.map