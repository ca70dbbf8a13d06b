import { Inject, Injectable } from '@nestjs/common';
import { RATE_LIMITER, RateLimitDecision, RateLimiter } from '../../infrastructure/rate-limit/rate-limiter.port';
import { RedisRateLimiter } from '../../infrastructure/rate-limit/redis.rate-limiter';
import { READ_MODEL_STORE, ReadModelStore } from '../../infrastructure/read-model/read-model-store.port';
import { RedisReadModelStore } from '../../infrastructure/read-model/redis.read-model-store';
import { apiKeyKeys } from '../../projections/api-keys/api-keys.projection';
import { ApiKeyLookup, credentialFrom, KeyCredential } from '../../read/api-keys/api-key.lookup';
import { APP_CONFIG, AppConfig, readModelNamespace } from '../config/app-config';

export const WINDOW_SECONDS = 60;

/**
 * A key's credential and the request's rate-limit decision together. On Redis both come from one
 * script (one round trip on every authenticated request); in memory, from the two stores in turn.
 * Without a credential, the request counts against the fallback bucket (the client address).
 */
@Injectable()
export class CredentialGate {
  private readonly redis: RedisRateLimiter | null;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(RATE_LIMITER) private readonly limiter: RateLimiter,
    @Inject(READ_MODEL_STORE) store: ReadModelStore,
    private readonly lookup: ApiKeyLookup,
  ) {
    this.redis = limiter instanceof RedisRateLimiter && store instanceof RedisReadModelStore ? limiter : null;
  }

  async lookupAndConsume(hash: string, fallbackBucket: string): Promise<{ credential: KeyCredential | null; decision: RateLimitDecision }> {
    const limit = this.config.rateLimitPerMinute;
    if (this.redis) {
      const key = readModelNamespace(this.config) + apiKeyKeys.byHash(hash);
      const { credential, decision } = await this.redis.consumeWithCredential(key, 'key:', fallbackBucket, limit, WINDOW_SECONDS);
      return { credential: credentialFrom(credential), decision };
    }
    const credential = await this.lookup.byHash(hash);
    return { credential, decision: await this.consume(credential ? `key:${credential.keyId}` : fallbackBucket) };
  }

  consume(bucket: string): Promise<RateLimitDecision> {
    return this.limiter.consume(bucket, this.config.rateLimitPerMinute, WINDOW_SECONDS);
  }
}
