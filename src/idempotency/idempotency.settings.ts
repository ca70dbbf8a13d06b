export interface IdempotencySettings {
  /** REDIS_NAMESPACE: the keys live under it when Redis holds them. */
  namespace: string;
  /** How long a first 2xx answer is kept and replayed: 24 hours. */
  retentionMs: number;
  /** How long a claim holds without an answer before another request may take the key (a crashed holder). */
  claimTtlMs: number;
  /** How long a concurrent request with the same key waits for the first one's answer before 409. */
  waitMs: number;
}

export const IDEMPOTENCY_SETTINGS = Symbol('IdempotencySettings');

export const IDEMPOTENCY_DEFAULTS: Omit<IdempotencySettings, 'namespace'> = {
  retentionMs: 24 * 60 * 60 * 1000,
  claimTtlMs: 60_000,
  waitMs: 10_000,
};
