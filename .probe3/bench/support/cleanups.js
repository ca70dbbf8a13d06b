"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.Cleanups = void 0;
exports.dropSchema = dropSchema;
exports.deleteRedisNamespace = deleteRedisNamespace;
const ioredis_1 = require("ioredis");
const pg_1 = require("pg");
/**
 * Everything a bench run must undo, undone in reverse order whatever happened: each step runs
 * even when an earlier one fails, and each failure is reported rather than thrown.
 */
class Cleanups {
    steps = [];
    running = null;
    add(label, run) {
        this.steps.push({ label, run });
    }
    runAll() {
        this.running ??= (async () => {
            for (const step of this.steps.reverse()) {
                try {
                    await step.run();
                }
                catch (error) {
                    process.stderr.write(`bench cleanup: ${step.label} failed: ${error instanceof Error ? error.message : String(error)}\n`);
                }
            }
        })();
        return this.running;
    }
}
exports.Cleanups = Cleanups;
async function dropSchema(url, schema) {
    if (!/^[a-z_][a-z0-9_]{0,62}$/.test(schema))
        throw new Error(`refusing to drop odd schema name ${schema}`);
    const client = new pg_1.Client({ connectionString: url });
    await client.connect();
    try {
        await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    }
    finally {
        await client.end();
    }
}
/** SCAN + UNLINK over the namespace only; never FLUSHDB, the Redis may be shared. */
async function deleteRedisNamespace(url, namespace) {
    if (namespace.length < 8)
        throw new Error(`refusing to delete short namespace ${namespace}`);
    const redis = new ioredis_1.Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1 });
    await redis.connect();
    let deleted = 0;
    try {
        const match = `${namespace.replace(/[*?[\]\\]/g, '\\$&')}*`;
        let cursor = '0';
        do {
            const [next, keys] = await redis.scan(cursor, 'MATCH', match, 'COUNT', 500);
            if (keys.length > 0)
                deleted += await redis.unlink(...keys);
            cursor = next;
        } while (cursor !== '0');
    }
    finally {
        await redis.quit();
    }
    return deleted;
}
//# sourceMappingURL=cleanups.js.map