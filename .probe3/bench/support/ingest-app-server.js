"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
const node_fs_1 = require("node:fs");
const cqrs_1 = require("@nestjs/cqrs");
const app_factory_1 = require("../../src/app.factory");
const clickhouse_port_1 = require("../../src/infrastructure/clickhouse/clickhouse.port");
const app_config_1 = require("../../src/platform/config/app-config");
const create_account_handler_1 = require("../../src/write/accounts/create-account.handler");
const api_key_handlers_1 = require("../../src/write/api-keys/api-key.handlers");
const create_trunk_handler_1 = require("../../src/write/trunks/create-trunk.handler");
const child_control_1 = require("./child-control");
const ingest_messages_1 = require("./ingest-messages");
/*
 * The real app in its own process (forked by ingest.bench.ts): embedded chDB and PGlite in the
 * bench's temp DATA_DIR, read models in memory (no REDIS_URL). Provisions an account, an
 * ingest-only key and trunks through the command bus, reports them over IPC, and on stop leaves
 * its ClickHouse statement counts and times in the stats file.
 */
const PROVIDERS = ['openai', 'elevenlabs', 'custom'];
async function main() {
    const statsFile = process.env[ingest_messages_1.STATS_FILE_ENV];
    if (!statsFile)
        throw new Error(`${ingest_messages_1.STATS_FILE_ENV} is not set`);
    const running = await (0, app_factory_1.createApp)((0, app_config_1.loadConfig)(process.env));
    const stats = { inserts: tally(), lookups: tally() };
    instrument(running.app.get(clickhouse_port_1.CLICKHOUSE), stats);
    (0, child_control_1.serveControl)(async () => {
        (0, node_fs_1.writeFileSync)(statsFile, JSON.stringify(stats));
        await running.close();
    });
    if (!running.tls)
        throw new Error('the bench needs TLS_MODE=native');
    const bus = running.app.get(cqrs_1.CommandBus);
    const metadata = { actor: 'bench', correlation_id: 'bench-setup' };
    const account = await bus.execute(new create_account_handler_1.CreateAccount('Ingest Bench', metadata));
    const key = await bus.execute(new api_key_handlers_1.IssueApiKey({ accountId: account.id, name: 'bench ingest key', scopes: ['ingest'], expiresAt: null }, metadata));
    const trunks = [];
    for (let i = 0; i < Number(process.env[ingest_messages_1.TRUNKS_ENV] ?? 10); i++) {
        const trunk = await bus.execute(new create_trunk_handler_1.CreateTrunk(account.id, trunkRequest(i), metadata));
        trunks.push({ id: trunk.id, provider: trunk.ai_provider });
    }
    const ready = {
        type: 'ready', port: running.port, cert: running.tls.cert, ingestKey: key.key, accountId: account.id, trunks, pid: process.pid,
    };
    process.send?.(ready);
}
/** Provider wiring in the shapes PROVIDER_VALIDATION=format accepts. */
function trunkRequest(i) {
    const provider = PROVIDERS[i % PROVIDERS.length];
    const base = { name: `Bench trunk ${i + 1}`, ai_provider: provider, sip_username: `bench-trunk-${i + 1}`, sip_password: 'bench-password-0123456789' };
    if (provider === 'openai')
        return { ...base, openai_api_key: `sk-proj-${'a'.repeat(40)}` };
    if (provider === 'elevenlabs')
        return { ...base, elevenlabs_api_key: 'b'.repeat(32), elevenlabs_agent_id: `agent_${'c'.repeat(20)}` };
    return { ...base, custom_endpoint: `wss://agent.example.com/voice/bench-${i + 1}` };
}
/**
 * Times the writer's statements from outside: the writer holds this same executor object, so
 * wrapping its methods here sees its INSERTs into call_records (projections insert into other
 * tables) and its previous-version lookups.
 */
function instrument(executor, stats) {
    const insert = executor.insert.bind(executor);
    const query = executor.query.bind(executor);
    executor.insert = async (table, rows) => {
        const started = performance.now();
        await insert(table, rows);
        if (table === 'call_records')
            add(stats.inserts, rows.length, started);
    };
    executor.query = async (sql, params) => {
        const started = performance.now();
        const rows = await query(sql, params);
        if (sql.includes('FROM call_records FINAL'))
            add(stats.lookups, rows.length, started);
        return rows;
    };
}
const tally = () => ({ calls: 0, rows: 0, ms: 0 });
function add(into, rows, started) {
    into.calls += 1;
    into.rows += rows;
    into.ms += performance.now() - started;
}
main().catch(child_control_1.failStartup);
//# sourceMappingURL=ingest-app-server.js.map