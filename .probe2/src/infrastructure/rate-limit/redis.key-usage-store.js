"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.RedisKeyUsageStore = void 0;
const redis_client_1 = require("../redis/redis.client");
// last_used_at only moves forward, so records arriving out of order (several instances, retries)
// never make a key look less recently used than it was.
const RECORD_LUA = `
redis.call('HINCRBY', KEYS[1], 'requests', 1)
if ARGV[2] == '1' then redis.call('HINCRBY', KEYS[1], 'errors', 1) end
local last = redis.call('HGET', KEYS[1], 'last_used_at')
if not last or tonumber(ARGV[1]) > tonumber(last) then
  redis.call('HSET', KEYS[1], 'last_used_at', ARGV[1])
end`;
const RECORD_COMMAND = 'trunklineKeyUsageRecord';
const FIELDS = ['requests', 'errors', 'last_used_at'];
class RedisKeyUsageStore {
    redis;
    namespace;
    recordScript;
    constructor(redis, namespace) {
        this.redis = redis;
        this.namespace = namespace;
        redis.defineCommand(RECORD_COMMAND, { lua: RECORD_LUA, numberOfKeys: 1 });
        const commands = redis;
        this.recordScript = commands[RECORD_COMMAND].bind(redis);
    }
    async record(keyId, at, isError) {
        const atMs = at.getTime();
        if (Number.isNaN(atMs))
            throw new RangeError('record() needs a valid date');
        await this.recordScript(this.key(keyId), atMs, isError ? '1' : '0');
    }
    /** One pipeline, one round trip, however many keys. */
    async get(keyIds) {
        const ids = [...new Set(keyIds)];
        const usage = new Map();
        if (ids.length === 0)
            return usage;
        const pipeline = this.redis.pipeline();
        for (const id of ids)
            pipeline.hmget(this.key(id), ...FIELDS);
        const replies = (await pipeline.exec()) ?? [];
        ids.forEach((id, i) => {
            const [err, fields] = replies[i] ?? [new Error('Missing pipeline reply')];
            if (err)
                throw err;
            usage.set(id, toUsage(fields));
        });
        return usage;
    }
    close() {
        return (0, redis_client_1.closeRedisClient)(this.redis);
    }
    key(keyId) {
        return `${this.namespace}usage:${keyId}`;
    }
}
exports.RedisKeyUsageStore = RedisKeyUsageStore;
function toUsage([requests, errors, lastUsedAt]) {
    return {
        lastUsedAt: lastUsedAt === null ? null : new Date(Number(lastUsedAt)),
        requestCount: Number(requests ?? 0),
        errorCount: Number(errors ?? 0),
    };
}
//# sourceMappingURL=redis.key-usage-store.js.map