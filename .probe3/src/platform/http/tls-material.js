"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.loadTlsMaterial = loadTlsMaterial;
const promises_1 = require("node:fs/promises");
const node_path_1 = require("node:path");
const selfsigned_1 = require("selfsigned");
/** Certificate files from configuration, else a self-signed pair kept in the data directory. */
async function loadTlsMaterial(opts) {
    if (opts.certFile && opts.keyFile) {
        const [cert, key] = await Promise.all([(0, promises_1.readFile)(opts.certFile, 'utf8'), (0, promises_1.readFile)(opts.keyFile, 'utf8')]);
        return { cert, key, selfSigned: false, certPath: opts.certFile };
    }
    const dir = (0, node_path_1.join)(opts.dataDir, 'tls');
    const certPath = (0, node_path_1.join)(dir, 'cert.pem');
    const keyPath = (0, node_path_1.join)(dir, 'key.pem');
    try {
        const [cert, key] = await Promise.all([(0, promises_1.readFile)(certPath, 'utf8'), (0, promises_1.readFile)(keyPath, 'utf8')]);
        return { cert, key, selfSigned: true, certPath };
    }
    catch {
        const generated = await (0, selfsigned_1.generate)([{ name: 'commonName', value: 'localhost' }], {
            keyType: 'ec',
            curve: 'P-256',
            algorithm: 'sha256',
            notAfterDate: new Date(Date.now() + 825 * 24 * 3600 * 1000),
            extensions: [
                { name: 'basicConstraints', cA: false },
                { name: 'subjectAltName', altNames: [{ type: 2, value: 'localhost' }, { type: 7, ip: '127.0.0.1' }, { type: 7, ip: '::1' }] },
            ],
        });
        await (0, promises_1.mkdir)(dir, { recursive: true, mode: 0o700 });
        await (0, promises_1.writeFile)(keyPath, generated.private, { mode: 0o600 });
        await (0, promises_1.writeFile)(certPath, generated.cert, { mode: 0o644 });
        return { cert: generated.cert, key: generated.private, selfSigned: true, certPath };
    }
}
//# sourceMappingURL=tls-material.js.map