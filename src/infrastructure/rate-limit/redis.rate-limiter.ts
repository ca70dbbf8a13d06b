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

/*
 * The request gate's one round trip: read an API key's credential record (a hash of the read
 * models) and count the request against that key's bucket, or against the fallback bucket (the
 * client address) when no such key exists. Same window logic as CONSUME_LUA.
 * KEYS[1] credential hash; ARGV: window, limit, margin, key bucket prefix, fallback bucket.
 * Returns {allowed, count, resetAt, credential fields as a flat list}.
 */
const LOOKUP_CONSUME_LUA = `
local record = redis.call('HGETALL', KEYS[1])
local keyId = nil
for i = 1, #record, 2 do
  if record[i] == 'key_id' then keyId = record[i + 1] end
end
local window = tonumber(ARGV[1])
local limit = tonumber(ARGV[2])
local now = tonumber(redis.call('TIME')[1])
local index = math.floor(now / window)
local resetAt = (index + 1) * window
local key = (keyId and (ARGV[4] .. keyId) or ARGV[5]) .. ':' .. index
local count = tonumber(redis.call('GET', key) or '0')
if count >= limit then
  return {0, count, resetAt, record}
end
count = redis.call('INCR', key)
if count == 1 then
  redis.call('EXPIREAT', key, resetAt + tonumber(ARGV[3]))
end
return {1, count, resetAt, record}`;

const CONSUME_COMMAND = 'trunklineRateLimitConsume';
const LOOKUP_CONSUME_COMMAND = 'trunklineRateLimitLookupConsume';

type LookupConsumeCommand = (
  credentialKey: string, windowSeconds: number, limit: number, marginSeconds: number, keyBucketPrefix: string, fallbackKey: string,
) => Promise<[number, number, number, string[]]>;
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
  private readonly lookupConsumeScript: LookupConsumeCommand;

  constructor(
    private readonly redis: Redis,
    private readonly namespace: string,
  ) {
    redis.defineCommand(CONSUME_COMMAND, { lua: CONSUME_LUA, numberOfKeys: 1 });
    const commands = redis as unknown as Record<string, ConsumeCommand>;
    this.consumeScript = commands[CONSUME_COMMAND].bind(redis);
    redis.defineCommand(LOOKUP_CONSUME_COMMAND, { lua: LOOKUP_CONSUME_LUA, numberOfKeys: 1 });
    this.lookupConsumeScript = (redis as unknown as Record<string, LookupConsumeCommand>)[LOOKUP_CONSUME_COMMAND].bind(redis);
  }

  /**
   * Reads the credential hash at `credentialKey` (a full Redis key) and consumes from bucket
   * `keyBucketPrefix + key_id` when it has a key_id, else from `fallbackBucket`: one round trip.
   */
  async consumeWithCredential(
    credentialKey: string, keyBucketPrefix: string, fallbackBucket: string, limit: number, windowSeconds: number,
  ): Promise<{ credential: Record<string, string>; decision: RateLimitDecision }> {
    assertLimitArgs(limit, windowSeconds);
    const [allowed, count, resetAt, flat] = await this.lookupConsumeScript(
      credentialKey, windowSeconds, limit, EXPIRY_MARGIN_SECONDS, `${this.namespace}rl:${keyBucketPrefix}`, `${this.namespace}rl:${fallbackBucket}`,
    );
    const credential: Record<string, string> = {};
    for (let i = 0; i + 1 < flat.length; i += 2) credential[flat[i]] = flat[i + 1];
    return { credential, decision: decision(allowed === 1, limit, count, resetAt) };
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
