import { DynamicModule, Inject, Module, OnApplicationShutdown } from '@nestjs/common';
import type { Redis } from 'ioredis';
import { CLUSTER, ClusterServices } from '../infrastructure/cluster/cluster.port';
import { REDIS } from '../infrastructure/infrastructure.module';
import { AppLogger } from '../platform/logging/logging';
import { CachedCredentialGate } from '../access/credentials/cached.credential-gate';
import { CredentialCache } from '../access/credentials/credential-cache';
import { CredentialRevocations } from '../access/credentials/credential-revocations';
import { LeasedRateLimiter } from './leased.rate-limiter';
import { READ_MODEL_STORE, ReadModelStore } from '../infrastructure/read-model/read-model-store.port';
import { ApiKeyLookup } from '../api-keys/read/api-key.lookup';
import { CREDENTIAL_GATE, CredentialGate } from '../access/credentials/credential-gate';
import { MemoryKeyUsageStore } from './memory.key-usage-store';
import { MemoryRateLimiter } from './memory.rate-limiter';
import { KEY_USAGE_STORE, KeyUsageStore, RATE_LIMITER, RateLimiter } from './rate-limiter.port';
import { RedisCredentialGate } from '../access/credentials/redis.credential-gate';
import { RedisKeyUsageStore } from './redis.key-usage-store';
import { RedisRateLimiter } from './redis.rate-limiter';
import { StoreCredentialGate } from '../access/credentials/store.credential-gate';

export interface RateLimitSettings {
  /** RATE_LIMIT_PER_MINUTE, per API key (or per client address without a valid key). */
  perMinute: number;
  /** GATEWAY_RATE_LIMIT_PER_MINUTE: a gateway key's own budget. */
  gatewayPerMinute: number;
  /** GATEWAY_UNKNOWN_LOOKUPS_PER_MINUTE: a gateway key's lookups of unknown users, counted apart. */
  gatewayUnknownPerMinute: number;
  /** REDIS_NAMESPACE: counters and key usage live under it. */
  namespace: string;
  /** Where the credential records live, for the gate's one-script lookup. */
  readModelNamespace: string;
  /** CREDENTIAL_CACHE_TTL_MS: how long an instance trusts a cached credential; 0 reads Redis on every request. */
  credentialCacheTtlMs: number;
  /** RATE_LIMIT_LEASE_PERCENT / 100: the largest lease of slots an instance takes; 0 counts every request in Redis. */
  leaseFraction: number;
}

/** Credentials cached per instance, at most (each well under 1 KB). */
const CREDENTIAL_CACHE_ENTRIES = 100_000;

/**
 * Rate limits and key usage: the limiter and usage store (Redis when REDIS_URL is set, shared by
 * every instance; process memory otherwise) and the credential gate that counts each request.
 * The window arithmetic is rate-window.ts. See docs/rate-limiting.md.
 */
const LIMITS = Symbol('Limits');
interface Limits {
  /** The store's own limiter (what the credential lookup reaches), exported as RATE_LIMITER. */
  limiter: RateLimiter;
  gate: CredentialGate;
  /** Null unless the gate caches credentials. */
  cache: CredentialCache | null;
}

export const CREDENTIAL_REVOCATIONS = Symbol('CredentialRevocations');

@Module({})
export class RateLimitingModule implements OnApplicationShutdown {
  constructor(@Inject(KEY_USAGE_STORE) private readonly usage: KeyUsageStore) {}

  /** `infrastructure` is imported so that it shuts down after this module (Redis closes last). */
  static forRoot(settings: RateLimitSettings, infrastructure: DynamicModule): DynamicModule {
    return {
      module: RateLimitingModule,
      imports: [infrastructure],
      providers: [
        ApiKeyLookup,
        {
          // Both stores are in Redis exactly when REDIS_URL is set: then one script does it all.
          provide: LIMITS,
          inject: [REDIS, ApiKeyLookup, READ_MODEL_STORE],
          useFactory: (redis: Redis | null, lookup: ApiKeyLookup, store: ReadModelStore): Limits => {
            const limits = {
              perMinute: settings.perMinute,
              gatewayPerMinute: settings.gatewayPerMinute,
              gatewayUnknownPerMinute: settings.gatewayUnknownPerMinute,
            };
            if (!redis) {
              const limiter = new MemoryRateLimiter();
              return { limiter, gate: new StoreCredentialGate(limiter, lookup, limits, store), cache: null };
            }
            const limiter = new RedisRateLimiter(redis, settings.namespace, settings.readModelNamespace);
            const shared = new RedisCredentialGate(limiter, settings.readModelNamespace, limits);
            if (settings.credentialCacheTtlMs === 0 && settings.leaseFraction === 0)
              return { limiter, gate: shared, cache: null };
            // Leases of 0 % are leases of one slot: the exact count, one round trip per request.
            const leased = new LeasedRateLimiter(limiter, { maxFraction: settings.leaseFraction });
            const cache = new CredentialCache({
              ttlMs: settings.credentialCacheTtlMs,
              maxEntries: CREDENTIAL_CACHE_ENTRIES,
            });
            return { limiter, gate: new CachedCredentialGate(shared, cache, leased, limits), cache };
          },
        },
        {
          provide: CREDENTIAL_REVOCATIONS,
          inject: [LIMITS, CLUSTER, AppLogger],
          useFactory: (limits: Limits, cluster: ClusterServices | null, logging: AppLogger) =>
            CredentialRevocations.connect(
              limits.cache?.enabled ? limits.cache : null,
              cluster?.bus ?? null,
              settings.namespace,
              logging.for('rate-limiting'),
            ),
        },
        { provide: RATE_LIMITER, inject: [LIMITS], useFactory: (limits: Limits): RateLimiter => limits.limiter },
        { provide: CREDENTIAL_GATE, inject: [LIMITS], useFactory: (limits: Limits): CredentialGate => limits.gate },
        {
          provide: KEY_USAGE_STORE,
          inject: [REDIS],
          useFactory: (redis: Redis | null): KeyUsageStore =>
            redis ? new RedisKeyUsageStore(redis, settings.namespace) : new MemoryKeyUsageStore(),
        },
      ],
      exports: [RATE_LIMITER, KEY_USAGE_STORE, CREDENTIAL_GATE, CREDENTIAL_REVOCATIONS, ApiKeyLookup],
    };
  }

  /** Usage counts still pending in this process are written; then the shared client closes. */
  async onApplicationShutdown(): Promise<void> {
    await this.usage.close();
  }
}
