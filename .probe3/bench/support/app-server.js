"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
const cqrs_1 = require("@nestjs/cqrs");
const app_factory_1 = require("../../src/app.factory");
const app_config_1 = require("../../src/platform/config/app-config");
const create_account_handler_1 = require("../../src/write/accounts/create-account.handler");
const api_key_handlers_1 = require("../../src/write/api-keys/api-key.handlers");
const child_control_1 = require("./child-control");
/*
 * The real app in its own process (forked by api.bench.ts), configured from the environment the
 * bench sets. Provisions one account and one full-scope key through the command bus, then reports
 * its port, certificate and keys over IPC.
 */
async function main() {
    const config = (0, app_config_1.loadConfig)(process.env);
    const running = await (0, app_factory_1.createApp)(config);
    (0, child_control_1.serveControl)(() => running.close());
    const adminKey = running.generatedAdminKey;
    if (!adminKey)
        throw new Error('expected a fresh event store schema, so that the app generates its admin key');
    if (!running.tls)
        throw new Error('the bench needs TLS_MODE=native');
    const bus = running.app.get(cqrs_1.CommandBus);
    const metadata = { actor: 'bench', correlation_id: 'bench-setup' };
    const account = await bus.execute(new create_account_handler_1.CreateAccount('Bench Account', metadata));
    const key = await bus.execute(new api_key_handlers_1.IssueApiKey({ accountId: account.id, name: 'bench key', scopes: ['full'], expiresAt: null }, metadata));
    const ready = {
        type: 'ready', port: running.port, cert: running.tls.cert, key: running.tls.key, adminKey, ids: { account_id: account.id }, accountKey: key.key,
    };
    process.send?.(ready);
}
main().catch(child_control_1.failStartup);
//# sourceMappingURL=app-server.js.map