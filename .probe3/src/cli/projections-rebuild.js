"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
const event_store_factory_1 = require("../infrastructure/event-store/event-store.factory");
const redis_read_model_store_1 = require("../infrastructure/read-model/redis.read-model-store");
const redis_client_1 = require("../infrastructure/redis/redis.client");
const app_config_1 = require("../platform/config/app-config");
const projection_runner_1 = require("../projections/projection-runner");
const read_models_service_1 = require("../projections/read-models.service");
const key_vault_factory_1 = require("../infrastructure/secrets/key-vault.factory");
const master_key_1 = require("../infrastructure/secrets/master-key");
const secret_box_1 = require("../infrastructure/secrets/secret-box");
/**
 * `npm run projections:rebuild`: drops the Redis read models and replays every event into them.
 * Run it with the service stopped (or accept that reads are empty until it finishes). In-memory
 * read models need no rebuild: they are rebuilt at every start.
 */
async function main() {
    const config = (0, app_config_1.loadConfig)();
    if (!config.redisUrl) {
        process.stdout.write('REDIS_URL is not set: the read models live in memory and are rebuilt at every start. Nothing to do.\n');
        return;
    }
    const redis = (0, redis_client_1.createRedisClient)(config.redisUrl, { connectionName: 'trunkline-rebuild' });
    await (0, redis_client_1.waitForReady)(redis, 10_000);
    const events = await (0, event_store_factory_1.createEventStore)({ url: config.eventStoreUrl ?? undefined, dataDir: config.dataDir, schema: config.eventStoreSchema });
    const store = new redis_read_model_store_1.RedisReadModelStore(redis, (0, app_config_1.readModelNamespace)(config));
    const masterKey = await (0, master_key_1.loadMasterKey)({ masterKey: config.masterKey, dataDir: config.dataDir, embedded: !config.eventStoreUrl });
    const secrets = new secret_box_1.SecretBox(masterKey, await (0, key_vault_factory_1.createKeyVault)(events));
    const runner = new projection_runner_1.ProjectionRunner('read-models', (0, read_models_service_1.buildReadModelProjections)(secrets, config.sipDomain), store, events);
    const started = Date.now();
    try {
        await runner.rebuild();
        for (;;) {
            const status = await runner.status();
            if (status.caughtUp) {
                process.stdout.write(`rebuilt read models in ${Date.now() - started} ms; checkpoint ${status.checkpoint ?? '(no events)'}\n`);
                break;
            }
            await new Promise((resolve) => setTimeout(resolve, 100));
        }
    }
    finally {
        await runner.stop();
        await events.close();
        await (0, redis_client_1.closeRedisClient)(redis);
    }
}
main().catch((error) => {
    process.stderr.write(`projections:rebuild failed: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
});
//# sourceMappingURL=projections-rebuild.js.map