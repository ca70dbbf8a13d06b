import type { ReadAhead, ReadAheadResult } from '../../infrastructure/read-model/read-ahead';
import type { KeyCredential } from '../../api-keys/read/api-key.lookup';
import type { RateLimitDecision } from '../../rate-limiting/rate-limiter.port';

export interface GateResult {
  decision: RateLimitDecision;
  /** On Redis, when a read ahead was asked for: the record the handler will read. */
  readAhead?: ReadAheadResult;
}

/**
 * A key's credential and the request's rate-limit decision together, counted against the key's
 * bucket, or without a credential against the fallback bucket (the client address). Two adapters,
 * chosen by configuration in RateLimitingModule: on Redis one script answers both (one round trip
 * per authenticated request, with the record a GET will read); in memory, the stores in turn.
 */
export interface CredentialGate {
  lookupAndConsume(
    hash: string,
    fallbackBucket: string,
    ahead?: ReadAhead,
  ): Promise<GateResult & { credential: KeyCredential | null }>;
  consume(bucket: string): Promise<RateLimitDecision>;
  /** consume(), reading `ahead` along where that saves a round trip. */
  consumeReadingAhead(bucket: string, ahead?: ReadAhead): Promise<GateResult>;
}

export const CREDENTIAL_GATE = Symbol('CredentialGate');

/** Requests per minute: an ordinary key (and a client without one), a gateway key, and its lookups of unknown users. */
export interface CredentialLimits {
  perMinute: number;
  gatewayPerMinute: number;
  gatewayUnknownPerMinute: number;
}

/**
 * The bucket and limit a request counts against: a key's own bucket, a gateway key's budget, or
 * for a gateway key's lookup that found nothing (`found` false) the bucket of unknown lookups.
 */
export function budgetOf(
  credential: KeyCredential,
  limits: CredentialLimits,
  found: boolean | undefined,
): { bucket: string; limit: number } {
  const bucket = `key:${credential.keyId}`;
  if (!credential.scopes.includes('gateway')) return { bucket, limit: limits.perMinute };
  if (found === false) return { bucket: `${bucket}:unknown`, limit: limits.gatewayUnknownPerMinute };
  return { bucket, limit: limits.gatewayPerMinute };
}
