"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
const fastify_1 = __importDefault(require("fastify"));
const child_control_1 = require("./child-control");
const child_messages_1 = require("./child-messages");
/*
 * The baseline: Fastify 5 over HTTPS with the app's certificate and the app's TLS settings,
 * answering the same route shape with a body of the same bytes, and nothing else (no auth,
 * no rate limit, no stores, no logging).
 */
async function main() {
    const spec = JSON.parse(process.env[child_messages_1.BARE_SPEC_ENV] ?? 'null');
    if (!spec)
        throw new Error(`${child_messages_1.BARE_SPEC_ENV} is not set`);
    const payload = JSON.parse(spec.body);
    const fastify = (0, fastify_1.default)({ https: { cert: spec.cert, key: spec.key, minVersion: 'TLSv1.2' }, logger: false });
    fastify.get(spec.route, async () => payload);
    await fastify.listen({ port: 0, host: '127.0.0.1' });
    const address = fastify.server.address();
    if (!address || typeof address === 'string')
        throw new Error('no port');
    (0, child_control_1.serveControl)(() => fastify.close());
    const ready = { type: 'ready', port: address.port };
    process.send?.(ready);
}
main().catch(child_control_1.failStartup);
//# sourceMappingURL=bare-server.js.map