/** What the projection runners need of the configuration (a slice cut in app.settings.ts). */
export interface ProjectionSettings {
  /** Realm of the HA1 digests the gateway lookup holds. */
  sipDomain: string;
  /** Prefix of every read-model key (checkpoints included). */
  readModelNamespace: string;
  /** How long a 2xx write waits for its projections (read-your-writes). */
  consistencyTimeoutMs: number;
  /** The most events a catch-up or rebuild reads and writes at once (PROJECTION_BATCH_SIZE). */
  batchSize: number;
  /**
   * RECORD_CACHE_TTL_MS: with Redis, how long an instance trusts its copy of a record the request
   * gate reads (an account, a trunk, a gateway record) without word of a write; 0 = no copies.
   */
  recordCacheTtlMs: number;
}

export const PROJECTION_SETTINGS = Symbol('ProjectionSettings');
