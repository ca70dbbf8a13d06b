import { Inject, Injectable } from '@nestjs/common';
import { RATE_LIMITER, RateLimitDecision, RateLimiter } from '../../infrastructure/rate-limit/rate-limiter.port';
import { RedisRateLimiter } from '../../infrastructure/rate-limit/redis.rate-limiter';
import { ReadAhead, ReadAheadResult, ReadAheadValue } from '../../infrastructure/read-model/read-ahead';
import { READ_MODEL_STORE, ReadModelStore } from '../../infrastructure/read-model/read-model-store.port';
import { RedisReadModelStore } from '../../infrastructure/read-model/redis.read-model-store';
import { apiKeyKeys } from '../../projections/api-keys/api-keys.projection';
import { ApiKeyLookup, credentialFrom, KeyCredential } from '../../read/api-keys/api-key.lookup';
import { APP_CONFIG, AppConfig, readModelNamespace } from '../config/app-config';

export const WINDOW_SECONDS = 60;

export interface GateResult {
  decision: RateLimitDecision;
  /** On Redis, when a read ahead was asked for: the record the handler will read. */
  readAhead?: ReadAheadResult;
}

/**
 * A key's credential and the request's rate-limit decision together. On Redis both come from one
 * script (one round trip on every authenticated request), with the read model a GET is going to
 * read when the route names it (see ReadAhead); in memory, from the stores in turn, and nothing
 * is read ahead (there is no round trip to save).
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

  async lookupAndConsume(
    hash: string,
    fallbackBucket: string,
    ahead?: ReadAhead,
  ): Promise<GateResult & { credential: KeyCredential | null }> {
    const limit = this.config.rateLimitPerMinute;
    if (this.redis) {
      const key = readModelNamespace(this.config) + apiKeyKeys.byHash(hash);
      const found = await this.redis.consumeWithCredential(key, 'key:', fallbackBucket, limit, WINDOW_SECONDS, ahead);
      return {
        credential: credentialFrom(found.credential),
        decision: found.decision,
        readAhead: aheadResult(ahead, found.readAhead),
      };
    }
    const credential = await this.lookup.byHash(hash);
    return { credential, decision: await this.consume(credential ? `key:${credential.keyId}` : fallbackBucket) };
  }

  consume(bucket: string): Promise<RateLimitDecision> {
    return this.limiter.consume(bucket, this.config.rateLimitPerMinute, WINDOW_SECONDS);
  }

  /** consume(), reading ahead on Redis. */
  async consumeReadingAhead(bucket: string, ahead?: ReadAhead): Promise<GateResult> {
    if (!this.redis || !ahead) return { decision: await this.consume(bucket) };
    const found = await this.redis.consumeReadingAhead(bucket, this.config.rateLimitPerMinute, WINDOW_SECONDS, ahead);
    return { decision: found.decision, readAhead: aheadResult(ahead, found.readAhead) };
  }
}

function aheadResult(ahead: ReadAhead | undefined, value: ReadAheadValue | undefined): ReadAheadResult | undefined {
  return ahead && value !== undefined ? new ReadAheadResult(ahead, value) : undefined;
}
