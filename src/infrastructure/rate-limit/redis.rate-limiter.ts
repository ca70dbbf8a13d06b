import type { Redis } from 'ioredis';
import { closeRedisClient } from '../redis/redis.client';
import { assertLimitArgs, decision } from './rate-limit.window';
import type { RateLimitDecision, RateLimiter } from './rate-limiter.port';

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

type ConsumeCommand = (
  bucketKey: string,
  windowSeconds: number,
  limit: number,
  marginSeconds: number,
) => Promise<[number, number, number]>;

export class RedisRateLimiter implements RateLimiter {
  private readonly consumeScript: ConsumeCommand;

  constructor(
    private readonly redis: Redis,
    private readonly namespace: string,
  ) {
    redis.defineCommand(CONSUME_COMMAND, { lua: CONSUME_LUA, numberOfKeys: 1 });
    const commands = redis as unknown as Record<string, ConsumeCommand>;
    this.consumeScript = commands[CONSUME_COMMAND].bind(redis);
  }

  async consume(bucket: string, limit: number, windowSeconds: number): Promise<RateLimitDecision> {
    assertLimitArgs(limit, windowSeconds);
    const key = `${this.namespace}rl:${bucket}`;
    const [allowed, count, resetAt] = await this.consumeScript(key, windowSeconds, limit, EXPIRY_MARGIN_SECONDS);
    return decision(allowed === 1, limit, count, resetAt);
  }

  close(): Promise<void> {
    return closeRedisClient(this.redis);
  }
}
