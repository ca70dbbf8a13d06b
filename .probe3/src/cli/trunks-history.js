"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
const event_store_factory_1 = require("../infrastructure/event-store/event-store.factory");
const app_config_1 = require("../platform/config/app-config");
const trunk_history_queries_1 = require("../read/trunk-history/trunk-history.queries");
const decider_1 = require("../shared/decider");
const trunk_decider_1 = require("../write/trunks/domain/trunk.decider");
/**
 * `npm run trunks:history -- <trunk_id>`: an auditor's replay of one trunk straight from the event
 * store: every event (secrets redacted) with who acted and when, then the state they fold into.
 */
async function main() {
    const trunkId = process.argv[2];
    if (!trunkId || !/^conn_[A-Za-z0-9]{1,64}$/.test(trunkId)) {
        process.stderr.write('usage: npm run trunks:history -- <trunk_id>   (conn_…)\n');
        process.exit(2);
    }
    const config = (0, app_config_1.loadConfig)();
    const events = await (0, event_store_factory_1.createEventStore)({ url: config.eventStoreUrl ?? undefined, dataDir: config.dataDir, schema: config.eventStoreSchema });
    try {
        const history = await events.readStream((0, trunk_decider_1.trunkStream)(trunkId));
        if (history.length === 0) {
            process.stderr.write(`no history for ${trunkId}\n`);
            process.exitCode = 1;
            return;
        }
        for (const event of history) {
            const who = `actor=${String(event.metadata.actor ?? '-')} request=${String(event.metadata.correlation_id ?? '-')}`;
            process.stdout.write(`#${event.revision} ${event.recordedAt.toISOString()} ${event.type} ${who}\n  ${JSON.stringify((0, trunk_history_queries_1.redact)(event.data))}\n`);
        }
        const state = (0, decider_1.fold)(trunk_decider_1.trunkDecider, history);
        process.stdout.write(`\nresulting state:\n${JSON.stringify((0, trunk_history_queries_1.redact)(state), null, 2)}\n`);
    }
    finally {
        await events.close();
    }
}
main().catch((error) => {
    process.stderr.write(`trunks:history failed: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
});
//# sourceMappingURL=trunks-history.js.map