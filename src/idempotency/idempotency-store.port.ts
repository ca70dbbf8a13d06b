/** The first successful answer to a request, as it is replayed. */
export interface StoredResponse {
  status: number;
  contentType: string | null;
  body: string;
}

/**
 * What a claim found: the key is now ours (`claimed`, with the token that completes or releases
 * it), another request holds it (`in_progress`), or it has an answer (`completed`). The
 * fingerprint is of the request that claimed or completed it (method, path and body).
 */
export type ClaimOutcome =
  | { kind: 'claimed'; token: string }
  | { kind: 'in_progress'; fingerprint: string }
  | { kind: 'completed'; fingerprint: string; response: StoredResponse };

/**
 * Idempotency keys of one scope (an account), shared by every instance that shares the store.
 * A claim is atomic: of concurrent claims of one key exactly one gets `claimed`. A claim expires
 * after `claimTtlMs` even if never completed or released (its holder crashed); a completed key
 * after `ttlMs`. Complete and release act only with the claim's own token, so a holder whose
 * claim expired and was taken over cannot overwrite the new holder's.
 */
export interface IdempotencyStore {
  claim(scope: string, key: string, fingerprint: string, claimTtlMs: number): Promise<ClaimOutcome>;
  complete(scope: string, key: string, token: string, response: StoredResponse, ttlMs: number): Promise<void>;
  release(scope: string, key: string, token: string): Promise<void>;
}

export const IDEMPOTENCY_STORE = Symbol('IdempotencyStore');
