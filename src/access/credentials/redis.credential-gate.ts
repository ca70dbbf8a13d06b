import { ReadAhead, ReadAheadResult, ReadAheadValue } from '../../infrastructure/read-model/read-ahead';
import { apiKeyKeys } from '../../api-keys/projections/api-keys.projection';
import { credentialFrom, KeyCredential } from '../../api-keys/read/api-key.lookup';
import type { CredentialGate, CredentialLimits, GateResult } from './credential-gate';
import type { RateLimitDecision } from '../../rate-limiting/rate-limiter.port';
import { RedisRateLimiter } from '../../rate-limiting/redis.rate-limiter';
import { WINDOW_SECONDS } from '../../rate-limiting/rate-window';

/**
 * The gate when both the read models and the limits live in Redis: one Lua script reads the key's
 * credential, counts the request in the right bucket and reads ahead the record the route names.
 */
export class RedisCredentialGate implements CredentialGate {
  constructor(
    private readonly limiter: RedisRateLimiter,
    private readonly readModelNamespace: string,
    private readonly limits: CredentialLimits,
  ) {}

  async lookupAndConsume(
    hash: string,
    fallbackBucket: string,
    ahead?: ReadAhead,
  ): Promise<GateResult & { credential: KeyCredential | null }> {
    const key = this.readModelNamespace + apiKeyKeys.byHash(hash);
    const found = await this.limiter.consumeWithCredential(
      key,
      'key:',
      fallbackBucket,
      this.limits.perMinute,
      WINDOW_SECONDS,
      ahead,
      { perMinute: this.limits.gatewayPerMinute, unknownPerMinute: this.limits.gatewayUnknownPerMinute },
    );
    return {
      credential: credentialFrom(found.credential),
      decision: found.decision,
      readAhead: aheadResult(ahead, found.readAhead),
    };
  }

  consume(bucket: string): Promise<RateLimitDecision> {
    return this.limiter.consume(bucket, this.limits.perMinute, WINDOW_SECONDS);
  }

  async consumeReadingAhead(bucket: string, ahead?: ReadAhead): Promise<GateResult> {
    if (!ahead) return { decision: await this.consume(bucket) };
    const found = await this.limiter.consumeReadingAhead(bucket, this.limits.perMinute, WINDOW_SECONDS, ahead);
    return { decision: found.decision, readAhead: aheadResult(ahead, found.readAhead) };
  }
}

function aheadResult(ahead: ReadAhead | undefined, value: ReadAheadValue | undefined): ReadAheadResult | undefined {
  return ahead && value !== undefined ? new ReadAheadResult(ahead, value) : undefined;
}
