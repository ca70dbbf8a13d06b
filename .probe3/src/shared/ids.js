"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.newEventId = exports.newId = void 0;
exports.randomBase62 = randomBase62;
const node_crypto_1 = require("node:crypto");
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
/** Uniform base62 string from a CSPRNG (rejection sampling: no modulo bias). */
function randomBase62(length) {
    let out = '';
    while (out.length < length) {
        for (const byte of (0, node_crypto_1.randomBytes)(length * 2)) {
            if (byte < 248)
                out += BASE62[byte % 62];
            if (out.length === length)
                break;
        }
    }
    return out;
}
const newId = (prefix, length = 24) => `${prefix}_${randomBase62(length)}`;
exports.newId = newId;
const newEventId = () => (0, node_crypto_1.randomUUID)();
exports.newEventId = newEventId;
//# sourceMappingURL=ids.js.map