import { ReadAhead, ReadAheadResult } from '../../infrastructure/read-model/read-ahead';
import type { ReadModelStore } from '../../infrastructure/read-model/read-model-store.port';
import type { KeyCredential } from '../../api-keys/read/api-key.lookup';
import { budgetOf, CredentialGate, CredentialLimits, GateResult } from './credential-gate';
import type { CredentialCache } from './credential-cache';
import type { RateLimitDecision, RateLimiter } from '../../rate-limiting/rate-limiter.port';
import { WINDOW_SECONDS } from '../../rate-limiting/rate-window';

/**
 * The gate without a round trip for most requests: the credential from this instance's cache and
 * the count from leased slots (LeasedRateLimiter). What it cannot answer locally goes to the
 * one-script gate (`shared`): a key not in the cache (its answer fills the cache), and, without
 * `records`, a gateway key's lookup, whose bucket depends on whether the lookup finds a trunk.
 * With `records` (the gate's record store: this instance's copies of the records) a gateway
 * key's lookup reads its record there first and counts in the bucket that answer decides, as the
 * script does. Nothing else is read ahead on the local path: the route reads its record itself,
 * from the same copies.
 */
export class CachedCredentialGate implements CredentialGate {
  constructor(
    private readonly shared: CredentialGate,
    private readonly cache: CredentialCache,
    private readonly limiter: RateLimiter,
    private readonly limits: CredentialLimits,
    private readonly records: ReadModelStore | null = null,
  ) {}

  async lookupAndConsume(
    hash: string,
    fallbackBucket: string,
    ahead?: ReadAhead,
  ): Promise<GateResult & { credential: KeyCredential | null }> {
    const cached = this.cache.get(hash);
    const gatewayAhead = cached && ahead && cached.scopes.includes('gateway') ? ahead : undefined;
    if (cached && gatewayAhead && this.records) {
      const value = await (gatewayAhead.kind === 'hash'
        ? this.records.hgetall(gatewayAhead.key)
        : this.records.get(gatewayAhead.key));
      // As in the Redis script: a missing string is "not found"; a hash always reads as found.
      const { bucket, limit } = budgetOf(cached, this.limits, gatewayAhead.kind === 'hash' || value !== null);
      return {
        credential: cached,
        decision: await this.limiter.consume(bucket, limit, WINDOW_SECONDS),
        readAhead: new ReadAheadResult(gatewayAhead, value),
      };
    }
    if (cached && !gatewayAhead) {
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
