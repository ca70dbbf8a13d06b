"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.RedisRateLimiter = void 0;
const redis_client_1 = require("../redis/redis.client");
const rate_limit_window_1 = require("./rate-limit.window");
/*
 * Windows come from the Redis server's clock (TIME), so instances with skewed clocks share the
 * same windows; Redis >= 5 replicates script effects, which is what allows TIME before a write.
 * A refused request does not increment: the counter is exactly the number allowed, a client
 * hammering while refused does not inflate it, and a limit raised mid-window lets more in.
 * The window key is built in the script from the server time, so it is not in KEYS (single
 * Redis; a cluster would need a hash tag on the bucket).
 * Returns {allowed 0|1, allowed count in this window, window end in unix seconds}.
 */
const CONSUME_LUA = `
local window = tonumber(ARGV[1])
local limit = tonumber(ARGV[2])
local now = tonumber(redis.call('TIME')[1])
local index = math.floor(now / window)
local resetAt = (index + 1) * window
local key = KEYS[1] .. ':' .. index
local count = tonumber(redis.call('GET', key) or '0')
if count >= limit then
  return {0, count, resetAt}
end
count = redis.call('INCR', key)
if count == 1 then
  redis.call('EXPIREAT', key, resetAt + tonumber(ARGV[3]))
end
return {1, count, resetAt}`;
const CONSUME_COMMAND = 'trunklineRateLimitConsume';
/** Keeps a window's key a little past its end: harmless, and robust to a server clock step. */
const EXPIRY_MARGIN_SECONDS = 5;
class RedisRateLimiter {
    redis;
    namespace;
    consumeScript;
    constructor(redis, namespace) {
        this.redis = redis;
        this.namespace = namespace;
        redis.defineCommand(CONSUME_COMMAND, { lua: CONSUME_LUA, numberOfKeys: 1 });
        const commands = redis;
        this.consumeScript = commands[CONSUME_COMMAND].bind(redis);
    }
    async consume(bucket, limit, windowSeconds) {
        (0, rate_limit_window_1.assertLimitArgs)(limit, windowSeconds);
        const key = `${this.namespace}rl:${bucket}`;
        const [allowed, count, resetAt] = await this.consumeScript(key, windowSeconds, limit, EXPIRY_MARGIN_SECONDS);
        return (0, rate_limit_window_1.decision)(allowed === 1, limit, count, resetAt);
    }
    close() {
        return (0, redis_client_1.closeRedisClient)(this.redis);
    }
}
exports.RedisRateLimiter = RedisRateLimiter;
//# sourceMappingURL=redis.rate-limiter.js.map