import type { Redis } from 'ioredis';
import type { ReadAhead, ReadAheadValue } from '../infrastructure/read-model/read-ahead';
import { closeRedisClient } from '../infrastructure/redis/redis.client';
import { defineScript, RedisScript } from '../infrastructure/redis/redis.script';
import { assertLimitArgs, decision } from './rate-window';
import type { RateLimitDecision, RateLimiter } from './rate-limiter.port';

/*
 * With a second key, the scripts also return the read model at KEYS[2] (HGETALL or GET, by the
 * kind in the last ARGV): the record the request's handler will read, in the same round trip.
 * pcall: a key of another type than expected reads as missing (the handler then reads it itself
 * and meets the real error) instead of failing the credential check.
 */
const READ_AHEAD_LUA = `
local function readAhead(kind)
  if #KEYS < 2 then return nil end
  local value = redis.pcall(kind == 'hash' and 'HGETALL' or 'GET', KEYS[2])
  if type(value) == 'table' and value.err then return false end
  return value
end`;

/*
 * The window arithmetic of rate-window.ts, on the Redis server's clock (TIME), so instances with
 * skewed clocks share the same windows; Redis >= 5 replicates script effects, which is what
 * allows TIME before a write. A refused request does not increment: the counter is exactly the
 * number allowed, a client hammering while refused does not inflate it, and a limit raised
 * mid-window lets more in. The window key is built in the script from the server time, so it is
 * not in KEYS (single Redis; a cluster would need a hash tag on the bucket).
 * Returns allowed 0|1, the allowed count in this window, the window end in unix seconds.
 */
const COUNT_LUA = `
local function countIn(bucket, window, limit, margin)
  local now = tonumber(redis.call('TIME')[1])
  local index = math.floor(now / window)
  local resetAt = (index + 1) * window
  local key = bucket .. ':' .. index
  local count = tonumber(redis.call('GET', key) or '0')
  if count >= limit then return 0, count, resetAt end
  count = redis.call('INCR', key)
  if count == 1 then redis.call('EXPIREAT', key, resetAt + margin) end
  return 1, count, resetAt
end`;

/*
 * KEYS[1] bucket, [KEYS[2] read ahead]; ARGV: window, limit, margin[, read-ahead kind].
 * Returns {allowed, count, resetAt[, the record read ahead]}.
 */
const CONSUME_LUA = `${READ_AHEAD_LUA}${COUNT_LUA}
local allowed, count, resetAt = countIn(KEYS[1], tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3]))
return {allowed, count, resetAt, readAhead(ARGV[4])}`;

/*
 * The request gate's one round trip: read an API key's credential record (a hash of the read
 * models) and count the request against that key's bucket, or against the fallback bucket (the
 * client address) when no such key exists. A gateway key has its own budget, and its lookups
 * that find nothing (the read ahead is missing) count in a bucket of their own, so a flood of
 * unknown user names never locks out the known ones (docs/sip-gateway.md).
 * KEYS[1] credential hash, [KEYS[2] read ahead]; ARGV: window, limit, margin, key bucket prefix,
 * fallback bucket, gateway limit, gateway unknown-lookup limit[, read-ahead kind].
 * Returns {allowed, count, resetAt, credential fields as a flat list, the limit applied[, the record read ahead]}.
 */
const LOOKUP_CONSUME_LUA = `${READ_AHEAD_LUA}${COUNT_LUA}
local record = redis.call('HGETALL', KEYS[1])
local keyId = nil
local scopes = ''
for i = 1, #record, 2 do
  if record[i] == 'key_id' then keyId = record[i + 1] end
  if record[i] == 'scopes' then scopes = record[i + 1] end
end
local ahead = readAhead(ARGV[8])
local bucket = ARGV[5]
local limit = tonumber(ARGV[2])
if keyId then
  bucket = ARGV[4] .. keyId
  if string.find(',' .. scopes .. ',', ',gateway,', 1, true) then
    limit = tonumber(ARGV[6])
    if #KEYS >= 2 and not ahead then
      bucket = bucket .. ':unknown'
      limit = tonumber(ARGV[7])
    end
  end
end
local allowed, count, resetAt = countIn(bucket, tonumber(ARGV[1]), limit, tonumber(ARGV[3]))
return {allowed, count, resetAt, record, limit, ahead}`;

/*
 * A lease of up to `want` slots of a bucket's current window, for a limiter that hands them out in
 * process (leased.rate-limiter.ts): the counter grows by what is granted, so the slots of every
 * instance together never exceed the limit. KEYS[1] bucket; ARGV: window, limit, margin, want.
 * Returns {granted, the count after the grant, resetAt}; granted 0 once the window is used up.
 */
const LEASE_LUA = `
local window = tonumber(ARGV[1])
local limit = tonumber(ARGV[2])
local now = tonumber(redis.call('TIME')[1])
local index = math.floor(now / window)
local resetAt = (index + 1) * window
local key = KEYS[1] .. ':' .. index
local count = tonumber(redis.call('GET', key) or '0')
local granted = math.min(tonumber(ARGV[4]), limit - count)
if granted <= 0 then return {0, count, resetAt} end
count = redis.call('INCRBY', key, granted)
if count == granted then redis.call('EXPIREAT', key, resetAt + tonumber(ARGV[3])) end
return {granted, count, resetAt}`;

const EXPIRY_MARGIN_SECONDS = 5;

type Reply = [number, number, number, ...unknown[]];
type ScriptCommand = RedisScript<(string | number)[], Reply>;

export interface CredentialDecision {
  credential: Record<string, string>;
  decision: RateLimitDecision;
  /** Present when a read ahead was asked for. */
  readAhead?: ReadAheadValue;
}

/** A gateway key's budget, and the part of it its lookups of unknown user names may use. */
export interface GatewayLimits {
  perMinute: number;
  unknownPerMinute: number;
}

export interface BucketDecision {
  decision: RateLimitDecision;
  readAhead?: ReadAheadValue;
}

/** Slots of one window taken at once: `count` is the window's count after the grant. */
export interface Lease {
  granted: number;
  count: number;
  resetAtSeconds: number;
}

export class RedisRateLimiter implements RateLimiter {
  private readonly leaseScript: ScriptCommand;
  private readonly consumeScript: ScriptCommand;
  private readonly consumeAheadScript: ScriptCommand;
  private readonly lookupConsumeScript: ScriptCommand;
  private readonly lookupConsumeAheadScript: ScriptCommand;

  /** `readModelNamespace`: where read-ahead keys live (the read models' key prefix). */
  constructor(
    private readonly redis: Redis,
    private readonly namespace: string,
    private readonly readModelNamespace = '',
  ) {
    const define = (name: string, lua: string, keys: number): ScriptCommand =>
      defineScript(redis, name, { lua, numberOfKeys: keys });
    this.leaseScript = define('trunklineRateLimitLease', LEASE_LUA, 1);
    this.consumeScript = define('trunklineRateLimitConsume', CONSUME_LUA, 1);
    this.consumeAheadScript = define('trunklineRateLimitConsumeAhead', CONSUME_LUA, 2);
    this.lookupConsumeScript = define('trunklineRateLimitLookupConsume', LOOKUP_CONSUME_LUA, 1);
    this.lookupConsumeAheadScript = define('trunklineRateLimitLookupConsumeAhead', LOOKUP_CONSUME_LUA, 2);
  }

  /**
   * Reads the credential hash at `credentialKey` (a full Redis key) and consumes from bucket
   * `keyBucketPrefix + key_id` when it has a key_id, else from `fallbackBucket`; with `ahead`,
   * also reads that read model. A gateway key counts against `gateway` (see LOOKUP_CONSUME_LUA).
   * One round trip.
   */
  async consumeWithCredential(
    credentialKey: string,
    keyBucketPrefix: string,
    fallbackBucket: string,
    limit: number,
    windowSeconds: number,
    ahead?: ReadAhead,
    gateway: GatewayLimits = { perMinute: limit, unknownPerMinute: limit },
  ): Promise<CredentialDecision> {
    assertLimitArgs(limit, windowSeconds);
    assertLimitArgs(gateway.perMinute, windowSeconds);
    assertLimitArgs(gateway.unknownPerMinute, windowSeconds);
    const args = [
      windowSeconds,
      limit,
      EXPIRY_MARGIN_SECONDS,
      `${this.namespace}rl:${keyBucketPrefix}`,
      `${this.namespace}rl:${fallbackBucket}`,
      gateway.perMinute,
      gateway.unknownPerMinute,
    ];
    const [allowed, count, resetAt, flat, applied, aheadValue] = ahead
      ? await this.lookupConsumeAheadScript(credentialKey, this.readModelNamespace + ahead.key, ...args, ahead.kind)
      : await this.lookupConsumeScript(credentialKey, ...args);
    const result: CredentialDecision = {
      credential: record(flat as string[]),
      decision: decision(allowed === 1, Number(applied), count, resetAt),
    };
    if (ahead) result.readAhead = valueOf(ahead, aheadValue);
    return result;
  }

  async consume(bucket: string, limit: number, windowSeconds: number): Promise<RateLimitDecision> {
    return (await this.consumeReadingAhead(bucket, limit, windowSeconds)).decision;
  }

  /** consume(), and with `ahead` the read model the request will read, in the same round trip. */
  async consumeReadingAhead(
    bucket: string,
    limit: number,
    windowSeconds: number,
    ahead?: ReadAhead,
  ): Promise<BucketDecision> {
    assertLimitArgs(limit, windowSeconds);
    const key = `${this.namespace}rl:${bucket}`;
    const args = [windowSeconds, limit, EXPIRY_MARGIN_SECONDS];
    const [allowed, count, resetAt, aheadValue] = ahead
      ? await this.consumeAheadScript(key, this.readModelNamespace + ahead.key, ...args, ahead.kind)
      : await this.consumeScript(key, ...args);
    const result: BucketDecision = { decision: decision(allowed === 1, limit, count, resetAt) };
    if (ahead) result.readAhead = valueOf(ahead, aheadValue);
    return result;
  }

  /** Takes up to `want` slots of the bucket's current window in one step (see LEASE_LUA). */
  async lease(bucket: string, limit: number, windowSeconds: number, want: number): Promise<Lease> {
    assertLimitArgs(limit, windowSeconds);
    const args = [windowSeconds, limit, EXPIRY_MARGIN_SECONDS, want];
    const [granted, count, resetAtSeconds] = await this.leaseScript(`${this.namespace}rl:${bucket}`, ...args);
    return { granted, count, resetAtSeconds };
  }

  close(): Promise<void> {
    return closeRedisClient(this.redis);
  }
}

function record(flat: string[]): Record<string, string> {
  const fields: Record<string, string> = {};
  for (let i = 0; i + 1 < flat.length; i += 2) fields[flat[i]] = flat[i + 1];
  return fields;
}

/** A missing string is null; a missing hash is {}; a key of the wrong type reads as missing. */
function valueOf(ahead: ReadAhead, value: unknown): ReadAheadValue {
  if (ahead.kind === 'hash') return Array.isArray(value) ? record(value as string[]) : {};
  return typeof value === 'string' ? value : null;
}
