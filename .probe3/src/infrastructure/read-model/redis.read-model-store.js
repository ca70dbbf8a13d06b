"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.RedisReadModelStore = void 0;
const redis_client_1 = require("../redis/redis.client");
const redis_health_1 = require("../redis/redis.health");
const rank_range_1 = require("./rank-range");
// Value keys are built from members inside the script, so they are not declared in KEYS
// (fine on a single Redis; a cluster would need the index and values in one hash slot).
// MGET goes in chunks because unpack() is bounded by Lua's C stack (about 8000 values).
const PAGE_LUA = `
local total = redis.call('ZCARD', KEYS[1])
local members
if ARGV[4] == 'desc' then
  members = redis.call('ZRANGE', KEYS[1], ARGV[2], ARGV[3], 'REV')
else
  members = redis.call('ZRANGE', KEYS[1], ARGV[2], ARGV[3])
end
local values = {}
for i = 1, #members, 1000 do
  local keys = {}
  for j = i, math.min(i + 999, #members) do keys[#keys + 1] = ARGV[1] .. members[j] end
  local chunk = redis.call('MGET', unpack(keys))
  for j = 1, #keys do values[#values + 1] = chunk[j] end
end
return {total, values}`;
const PAGE_COMMAND = 'trunklineReadModelPage';
const SCAN_BATCH = 500;
class RedisReadModelStore {
    redis;
    namespace;
    pageScript;
    constructor(redis, namespace) {
        this.redis = redis;
        this.namespace = namespace;
        redis.defineCommand(PAGE_COMMAND, { lua: PAGE_LUA, numberOfKeys: 1, readOnly: true });
        const commands = redis;
        this.pageScript = commands[PAGE_COMMAND].bind(redis);
    }
    get(key) {
        return this.redis.get(this.k(key));
    }
    async mget(keys) {
        if (keys.length === 0)
            return [];
        return this.redis.mget(keys.map((key) => this.k(key)));
    }
    hgetall(key) {
        return this.redis.hgetall(this.k(key));
    }
    zcard(key) {
        return this.redis.zcard(this.k(key));
    }
    async zrange(key, offset, count, order) {
        const range = (0, rank_range_1.rankRange)(offset, count);
        if (!range)
            return [];
        // ioredis types `stop` as string only.
        const [start, stop] = [String(range[0]), String(range[1])];
        if (order === 'desc')
            return this.redis.zrange(this.k(key), start, stop, 'REV');
        return this.redis.zrange(this.k(key), start, stop);
    }
    async page(indexKey, valuePrefix, offset, count, order) {
        // An empty range still needs the total; start > stop makes ZRANGE return nothing.
        const [start, stop] = (0, rank_range_1.rankRange)(offset, count) ?? [1, 0];
        const [total, values] = await this.pageScript(this.k(indexKey), this.k(valuePrefix), start, stop, order);
        return { total, values };
    }
    async write(ops) {
        // Ops without fields are no-ops, and Redis would reject them at queue time, aborting EXEC.
        const effective = ops.filter(hasEffect);
        if (effective.length === 0)
            return;
        const tx = this.redis.multi();
        for (const op of effective)
            this.queue(tx, op);
        const results = await tx.exec();
        if (!results)
            throw new Error('Read-model write transaction was aborted');
        // EXEC does not roll back: a failing command (e.g. WRONGTYPE) leaves the others applied.
        const failed = results.find(([err]) => err);
        if (failed?.[0])
            throw failed[0];
    }
    async clear() {
        const match = `${escapeGlob(this.namespace)}*`;
        let cursor = '0';
        do {
            const [next, keys] = await this.redis.scan(cursor, 'MATCH', match, 'COUNT', SCAN_BATCH);
            if (keys.length > 0)
                await this.redis.unlink(...keys);
            cursor = next;
        } while (cursor !== '0');
    }
    ping() {
        return (0, redis_health_1.pingRedis)(this.redis, 1000);
    }
    close() {
        return (0, redis_client_1.closeRedisClient)(this.redis);
    }
    k(key) {
        return this.namespace + key;
    }
    queue(tx, op) {
        switch (op.op) {
            case 'set':
                tx.set(this.k(op.key), op.value);
                break;
            case 'del':
                tx.del(this.k(op.key));
                break;
            case 'hset':
                tx.hset(this.k(op.key), op.fields);
                break;
            case 'hdel':
                tx.hdel(this.k(op.key), ...op.fields);
                break;
            case 'zadd':
                tx.zadd(this.k(op.key), op.score, op.member);
                break;
            case 'zrem':
                tx.zrem(this.k(op.key), op.member);
                break;
        }
    }
}
exports.RedisReadModelStore = RedisReadModelStore;
function hasEffect(op) {
    if (op.op === 'hset')
        return Object.keys(op.fields).length > 0;
    if (op.op === 'hdel')
        return op.fields.length > 0;
    return true;
}
function escapeGlob(value) {
    return value.replace(/[*?[\]\\]/g, '\\$&');
}
//# sourceMappingURL=redis.read-model-store.js.map