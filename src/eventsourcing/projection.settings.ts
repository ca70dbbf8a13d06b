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
}

export const PROJECTION_SETTINGS = Symbol('ProjectionSettings');
