import type { ReadAhead } from '../infrastructure/read-model/read-ahead';
import type { ApiKeyLookup, KeyCredential } from '../read/api-keys/api-key.lookup';
import type { CredentialGate, GateResult } from './credential-gate';
import type { RateLimitDecision, RateLimiter } from './rate-limiter.port';
import { WINDOW_SECONDS } from './rate-window';

/** The gate over any read-model store and limiter: the credential, then the count. Nothing is read ahead. */
export class StoreCredentialGate implements CredentialGate {
  constructor(
    private readonly limiter: RateLimiter,
    private readonly lookup: ApiKeyLookup,
    private readonly perMinute: number,
  ) {}

  async lookupAndConsume(
    hash: string,
    fallbackBucket: string,
  ): Promise<GateResult & { credential: KeyCredential | null }> {
    const credential = await this.lookup.byHash(hash);
    return { credential, decision: await this.consume(credential ? `key:${credential.keyId}` : fallbackBucket) };
  }

  consume(bucket: string): Promise<RateLimitDecision> {
    return this.limiter.consume(bucket, this.perMinute, WINDOW_SECONDS);
  }

  async consumeReadingAhead(bucket: string, _ahead?: ReadAhead): Promise<GateResult> {
    return { decision: await this.consume(bucket) };
  }
}
