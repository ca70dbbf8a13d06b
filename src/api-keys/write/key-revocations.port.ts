/**
 * A revoked key must be refused by every instance before the revoke answers 204. Instances may
 * keep credentials in a cache of their own; the write side states the need after its append is in
 * the read models, and the composition root binds it to whatever keeps those caches in step.
 */
export interface KeyRevocations {
  /** Resolves once every instance stopped trusting the key with this hash (bounded; see the binding). */
  revoked(keyHash: string): Promise<void>;
}

export const KEY_REVOCATIONS = Symbol('KeyRevocations');
