"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
const cqrs_1 = require("@nestjs/cqrs");
const app_factory_1 = require("../../src/app.factory");
const clickhouse_port_1 = require("../../src/infrastructure/clickhouse/clickhouse.port");
const app_config_1 = require("../../src/platform/config/app-config");
const create_account_handler_1 = require("../../src/write/accounts/create-account.handler");
const api_key_handlers_1 = require("../../src/write/api-keys/api-key.handlers");
const analytics_breakdown_1 = require("./analytics-breakdown");
const analytics_engine_1 = require("./analytics-engine");
const analytics_load_1 = require("./analytics-load");
const child_control_1 = require("./child-control");
/*
 * The real app (embedded chDB, PGlite event store, in-memory read models) in its own process,
 * forked by analytics.bench.ts on a fresh data directory. It provisions one account and a
 * full-scope key, then also answers bench-only commands (load, settle, raw, breakdown, export) that use the
 * app's own ClickHouse executor: chDB allows one engine per process, so the bulk load and the
 * raw-row baseline must run here, beside the app that holds the engine.
 */
async function main() {
    const config = (0, app_config_1.loadConfig)(process.env);
    const running = await (0, app_factory_1.createApp)(config);
    (0, child_control_1.serveControl)(() => running.close());
    if (!running.tls)
        throw new Error('the bench needs TLS_MODE=native');
    const bus = running.app.get(cqrs_1.CommandBus);
    const metadata = { actor: 'bench', correlation_id: 'analytics-bench-setup' };
    const account = await bus.execute(new create_account_handler_1.CreateAccount('Analytics Bench Account', metadata));
    const key = await bus.execute(new api_key_handlers_1.IssueApiKey({ accountId: account.id, name: 'analytics bench key', scopes: ['full'], expiresAt: null }, metadata));
    const clickhouse = running.app.get(clickhouse_port_1.CLICKHOUSE);
    serveBenchCalls(clickhouse);
    const [{ version }] = await clickhouse.query('SELECT version() AS version');
    const ready = {
        type: 'ready', port: running.port, cert: running.tls.cert, accountId: account.id, accountKey: key.key, chdbVersion: version,
    };
    process.send?.(ready);
}
function serveBenchCalls(clickhouse) {
    const progress = (message) => process.send?.({ type: 'bench-progress', message });
    process.on('message', (message) => {
        if (message?.type !== 'bench-call')
            return;
        run(clickhouse, message, progress).then((value) => process.send?.({ type: 'bench-answer', id: message.id, ok: true, value }), (error) => process.send?.({ type: 'bench-answer', id: message.id, ok: false, error: error instanceof Error ? (error.stack ?? error.message) : String(error) }));
    });
}
function run(clickhouse, call, progress) {
    switch (call.op) {
        case 'load': return (0, analytics_load_1.loadCalls)(clickhouse, call.args, progress);
        case 'settle': return (0, analytics_engine_1.settle)(clickhouse, call.args.timeoutMs);
        case 'raw': return (0, analytics_engine_1.timeRawOverview)(clickhouse, call.args);
        case 'breakdown': return (0, analytics_breakdown_1.breakdown)(clickhouse, call.args);
        case 'export': return (0, analytics_engine_1.exportCsv)(clickhouse, call.args.path, call.args.accountId);
    }
}
main().catch(child_control_1.failStartup);
//# sourceMappingURL=analytics-app-server.js.map