import type { ReadAhead } from '../../infrastructure/read-model/read-ahead';
import type { KeyCredential } from '../../api-keys/read/api-key.lookup';
import { budgetOf, CredentialGate, CredentialLimits, GateResult } from './credential-gate';
import type { CredentialCache } from './credential-cache';
import type { RateLimitDecision, RateLimiter } from '../../rate-limiting/rate-limiter.port';
import { WINDOW_SECONDS } from '../../rate-limiting/rate-window';

/**
 * The gate without a round trip for most requests: the credential from this instance's cache and
 * the count from leased slots (LeasedRateLimiter). What it cannot answer locally goes to the
 * one-script gate (`shared`): a key not in the cache (its answer fills the cache), and a gateway
 * key's lookup, whose bucket depends on whether the lookup finds a trunk. Nothing is read ahead
 * on the local path: the handler reads its record itself, one round trip where there were one.
 */
export class CachedCredentialGate implements CredentialGate {
  constructor(
    private readonly shared: CredentialGate,
    private readonly cache: CredentialCache,
    private readonly limiter: RateLimiter,
    private readonly limits: CredentialLimits,
  ) {}

  async lookupAndConsume(
    hash: string,
    fallbackBucket: string,
    ahead?: ReadAhead,
  ): Promise<GateResult & { credential: KeyCredential | null }> {
    const cached = this.cache.get(hash);
    if (cached && !(ahead && cached.scopes.includes('gateway'))) {
      const { bucket, limit } = budgetOf(cached, this.limits, undefined);
      return { credential: cached, decision: await this.limiter.consume(bucket, limit, WINDOW_SECONDS) };
    }
    const ticket = this.cache.ticket();
    const found = await this.shared.lookupAndConsume(hash, fallbackBucket, ahead);
    if (found.credential) this.cache.set(hash, found.credential, ticket);
    return found;
  }

  consume(bucket: string): Promise<RateLimitDecision> {
    return this.limiter.consume(bucket, this.limits.perMinute, WINDOW_SECONDS);
  }

  async consumeReadingAhead(bucket: string): Promise<GateResult> {
    return { decision: await this.consume(bucket) };
  }
}
