import { createHash, randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import { defineScript, RedisScript } from '../infrastructure/redis/redis.script';
import type { ClaimOutcome, IdempotencyStore, StoredResponse } from './idempotency-store.port';

/*
 * One hash per key: state (claimed | completed), fp (the request's fingerprint), token (the
 * claim's), and once completed status, ctype, body. Each script reads and writes it in one step,
 * so of concurrent claims exactly one finds it absent; PEXPIRE bounds a crashed holder's claim.
 * KEYS[1] the key; ARGV fingerprint, token, claim ttl ms.
 * Returns {state, fp, status, ctype, body} of an existing key, or {'ours'} once claimed.
 */
const CLAIM_LUA = `
local found = redis.call('HMGET', KEYS[1], 'state', 'fp', 'status', 'ctype', 'body')
if found[1] then return found end
redis.call('HSET', KEYS[1], 'state', 'claimed', 'fp', ARGV[1], 'token', ARGV[2])
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return {'ours'}`;

/* KEYS[1] the key; ARGV token, status, content type ('' for none), body, ttl ms. Only the claim's holder completes it. */
const COMPLETE_LUA = `
local held = redis.call('HMGET', KEYS[1], 'state', 'token')
if held[1] ~= 'claimed' or held[2] ~= ARGV[1] then return 0 end
redis.call('HSET', KEYS[1], 'state', 'completed', 'status', ARGV[2], 'ctype', ARGV[3], 'body', ARGV[4])
redis.call('PEXPIRE', KEYS[1], ARGV[5])
return 1`;

/* KEYS[1] the key; ARGV token. Only the claim's holder releases it. */
const RELEASE_LUA = `
local held = redis.call('HMGET', KEYS[1], 'state', 'token')
if held[1] ~= 'claimed' or held[2] ~= ARGV[1] then return 0 end
return redis.call('DEL', KEYS[1])`;

type Found = [string | null, string | null, string | null, string | null, string | null];

/** Idempotency keys in Redis, shared by every instance (REDIS_URL). */
export class RedisIdempotencyStore implements IdempotencyStore {
  private readonly claimScript: RedisScript<[string, string, string, number], Found | ['ours']>;
  private readonly completeScript: RedisScript<[string, string, number, string, string, number], number>;
  private readonly releaseScript: RedisScript<[string, string], number>;

  constructor(
    redis: Redis,
    private readonly namespace: string,
  ) {
    this.claimScript = defineScript(redis, 'idempotencyClaim', { lua: CLAIM_LUA, numberOfKeys: 1 });
    this.completeScript = defineScript(redis, 'idempotencyComplete', { lua: COMPLETE_LUA, numberOfKeys: 1 });
    this.releaseScript = defineScript(redis, 'idempotencyRelease', { lua: RELEASE_LUA, numberOfKeys: 1 });
  }

  async claim(scope: string, key: string, fingerprint: string, claimTtlMs: number): Promise<ClaimOutcome> {
    const token = randomUUID();
    const found = await this.claimScript(this.keyOf(scope, key), fingerprint, token, claimTtlMs);
    if (found[0] === 'ours') return { kind: 'claimed', token };
    const [state, fp, status, ctype, body] = found as Found;
    if (state !== 'completed') return { kind: 'in_progress', fingerprint: fp ?? '' };
    return {
      kind: 'completed',
      fingerprint: fp ?? '',
      response: { status: Number(status), contentType: ctype ? ctype : null, body: body ?? '' },
    };
  }

  async complete(scope: string, key: string, token: string, response: StoredResponse, ttlMs: number): Promise<void> {
    const { status, contentType, body } = response;
    await this.completeScript(this.keyOf(scope, key), token, status, contentType ?? '', body, ttlMs);
  }

  async release(scope: string, key: string, token: string): Promise<void> {
    await this.releaseScript(this.keyOf(scope, key), token);
  }

  /** Hashed: a client's key may be any 255 printable characters, none of which reach a Redis key name. */
  private keyOf(scope: string, key: string): string {
    return `${this.namespace}idem:${scope}:${createHash('sha256').update(key).digest('hex')}`;
  }
}
