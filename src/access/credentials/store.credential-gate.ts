import { ReadAhead, ReadAheadResult, ReadAheadValue } from '../../infrastructure/read-model/read-ahead';
import type { ReadModelStore } from '../../infrastructure/read-model/read-model-store.port';
import type { ApiKeyLookup, KeyCredential } from '../../api-keys/read/api-key.lookup';
import { budgetOf, CredentialGate, CredentialLimits, GateResult } from './credential-gate';
import type { RateLimitDecision, RateLimiter } from '../../rate-limiting/rate-limiter.port';
import { WINDOW_SECONDS } from '../../rate-limiting/rate-window';

/**
 * The gate over any read-model store and limiter: the credential, then the count. Only a gateway
 * key's lookup is read ahead, because whether it finds a trunk decides the bucket it counts in.
 */
export class StoreCredentialGate implements CredentialGate {
  constructor(
    private readonly limiter: RateLimiter,
    private readonly lookup: ApiKeyLookup,
    private readonly limits: CredentialLimits,
    private readonly store: ReadModelStore,
  ) {}

  async lookupAndConsume(
    hash: string,
    fallbackBucket: string,
    ahead?: ReadAhead,
  ): Promise<GateResult & { credential: KeyCredential | null }> {
    const credential = await this.lookup.byHash(hash);
    if (!credential) return { credential, decision: await this.consume(fallbackBucket) };
    const gatewayAhead = ahead && credential.scopes.includes('gateway') ? ahead : undefined;
    const value = gatewayAhead ? await this.read(gatewayAhead) : undefined;
    // As in the Redis script: a missing string is "not found"; a hash always reads as found.
    const found = value === undefined ? undefined : value !== null;
    const { bucket, limit } = budgetOf(credential, this.limits, found);
    return {
      credential,
      decision: await this.limiter.consume(bucket, limit, WINDOW_SECONDS),
      ...(gatewayAhead && value !== undefined ? { readAhead: new ReadAheadResult(gatewayAhead, value) } : {}),
    };
  }

  consume(bucket: string): Promise<RateLimitDecision> {
    return this.limiter.consume(bucket, this.limits.perMinute, WINDOW_SECONDS);
  }

  async consumeReadingAhead(bucket: string, _ahead?: ReadAhead): Promise<GateResult> {
    return { decision: await this.consume(bucket) };
  }

  private read(ahead: ReadAhead): Promise<ReadAheadValue> {
    return ahead.kind === 'hash' ? this.store.hgetall(ahead.key) : this.store.get(ahead.key);
  }
}
