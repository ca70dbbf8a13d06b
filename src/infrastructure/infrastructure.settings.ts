import type { ProviderValidatorOptions } from './providers/provider-validator.factory';

/**
 * What the store adapters need, as plain values: the composition root cuts it from the validated
 * configuration, so no adapter reads the environment or knows the web app's config.
 */
export interface InfrastructureSettings {
  /** null: process memory (one instance). */
  redisUrl: string | null;
  /** REDIS_COMMAND_TIMEOUT_MS: a command that takes longer fails. */
  redisCommandTimeoutMs: number;
  /** Prefix of every read-model key (REDIS_NAMESPACE + 'rm:'). */
  readModelNamespace: string;
  /** null: embedded PGlite under dataDir. */
  eventStoreUrl: string | null;
  eventStoreSchema: string;
  dataDir: string;
  /** Required with an external event store; embedded, a key file under dataDir is made. */
  masterKey: string | null;
  /** null: embedded chDB under dataDir. */
  clickhouseUrl: string | null;
  clickhouseCluster: string | null;
  providers: ProviderValidatorOptions;
}

/** Instances sharing one Redis coordinate through it (leases, fenced writes, the bus). */
export interface ClusterSettings {
  redisUrl: string | null;
  /** REDIS_NAMESPACE: leases, channels and shared checkpoints live under it. */
  namespace: string;
}
