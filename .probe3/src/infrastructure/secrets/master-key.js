"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.MASTER_KEY_FILE = exports.MASTER_KEY_BYTES = void 0;
exports.loadMasterKey = loadMasterKey;
exports.decodeMasterKey = decodeMasterKey;
const node_crypto_1 = require("node:crypto");
const promises_1 = require("node:fs/promises");
const node_path_1 = require("node:path");
exports.MASTER_KEY_BYTES = 32;
exports.MASTER_KEY_FILE = 'master.key';
/**
 * The master key that wraps every data key. Configured keys win; in the embedded setup without
 * one, a key is generated once into `<dataDir>/master.key` (mode 0600) and reused on later starts.
 * A shared store needs the same key on every instance, so there it must be configured.
 */
async function loadMasterKey(opts) {
    if (opts.masterKey !== null)
        return decodeMasterKey(opts.masterKey, 'MASTER_KEY');
    if (!opts.embedded)
        throw new Error('MASTER_KEY: required when EVENT_STORE_URL is set');
    await (0, promises_1.mkdir)(opts.dataDir, { recursive: true, mode: 0o700 });
    return readOrCreateKeyFile((0, node_path_1.join)(opts.dataDir, exports.MASTER_KEY_FILE));
}
const BASE64 = /^(?:[A-Za-z0-9+/]+={0,2}|[A-Za-z0-9_-]+)$/;
/** Strict: Buffer.from(…, 'base64') skips invalid characters, which would hide a truncated key. */
function decodeMasterKey(text, source) {
    const trimmed = text.trim();
    if (!BASE64.test(trimmed))
        throw new Error(`${source}: must be base64 of exactly ${exports.MASTER_KEY_BYTES} bytes (found characters outside base64)`);
    const key = Buffer.from(trimmed, trimmed.includes('-') || trimmed.includes('_') ? 'base64url' : 'base64');
    if (key.length !== exports.MASTER_KEY_BYTES) {
        // The length only: never the value.
        throw new Error(`${source}: must be base64 of exactly ${exports.MASTER_KEY_BYTES} bytes, got ${key.length} (generate one with: openssl rand -base64 32)`);
    }
    return key;
}
async function readOrCreateKeyFile(path) {
    const existing = await readKeyFile(path);
    if (existing)
        return existing;
    // Written to a private temporary file, then linked into place: link() fails if the name exists,
    // so two processes starting at once agree on one key and nobody reads a half-written file.
    const temporary = `${path}.${process.pid}.${(0, node_crypto_1.randomBytes)(4).toString('hex')}.tmp`;
    await (0, promises_1.writeFile)(temporary, `${(0, node_crypto_1.randomBytes)(exports.MASTER_KEY_BYTES).toString('base64')}\n`, { mode: 0o600, flag: 'wx' });
    try {
        await (0, promises_1.link)(temporary, path);
    }
    catch (error) {
        if (error.code !== 'EEXIST')
            throw error;
    }
    finally {
        await (0, promises_1.unlink)(temporary).catch(() => undefined);
    }
    const key = await readKeyFile(path);
    if (!key)
        throw new Error(`MASTER_KEY: could not create ${path}`);
    return key;
}
async function readKeyFile(path) {
    let text;
    try {
        text = await (0, promises_1.readFile)(path, 'utf8');
    }
    catch (error) {
        if (error.code === 'ENOENT')
            return null;
        throw error;
    }
    return decodeMasterKey(text, `MASTER_KEY (from ${path})`);
}
//# sourceMappingURL=master-key.js.map