import { DynamicModule, Module } from '@nestjs/common';
import type { Redis } from 'ioredis';
import { ApiKeyLookup } from '../../api-keys/read/api-key.lookup';
import { CLUSTER, ClusterServices } from '../../infrastructure/cluster/cluster.port';
import { REDIS } from '../../infrastructure/infrastructure.module';
import {
  GATE_READ_MODEL_STORE,
  READ_MODEL_STORE,
  ReadModelStore,
} from '../../infrastructure/read-model/read-model-store.port';
import { AppLogger } from '../../platform/logging/logging';
import { LeasedRateLimiter } from '../../rate-limiting/leased.rate-limiter';
import { RATE_LIMITER, RateLimiter } from '../../rate-limiting/rate-limiter.port';
import type { RateLimitSettings } from '../../rate-limiting/rate-limiting.module';
import { RedisRateLimiter } from '../../rate-limiting/redis.rate-limiter';
import { CachedCredentialGate } from './cached.credential-gate';
import { CredentialCache } from './credential-cache';
import { CREDENTIAL_GATE, CredentialGate } from './credential-gate';
import { CredentialRevocations } from './credential-revocations';
import { KEY_HASHES, KeyHashes, UNCACHED_KEY_HASHES } from './key-hashes';
import { RedisCredentialGate } from './redis.credential-gate';
import { StoreCredentialGate } from './store.credential-gate';

/** Credentials cached per instance, at most (each well under 1 KB). */
const CREDENTIAL_CACHE_ENTRIES = 100_000;

const GATE = Symbol('Gate');
interface Gate {
  gate: CredentialGate;
  /** Null unless the gate caches credentials. */
  cache: CredentialCache | null;
}

export const CREDENTIAL_REVOCATIONS = Symbol('CredentialRevocations');

/**
 * The credential gate: the key's record and the request's rate-limit count in one step (one Redis
 * script when the read models and the limiter are both in Redis; the stores in turn otherwise),
 * optionally served from a per-instance credential cache with leased rate-limit slots, and the
 * revocations that empty that cache on every instance. See docs/rate-limiting.md.
 */
@Module({})
export class CredentialsModule {
  /** `rateLimiting` provides the limiter this gate counts with; `infrastructure` Redis and the read-model store. */
  static forRoot(
    settings: RateLimitSettings,
    rateLimiting: DynamicModule,
    infrastructure: DynamicModule,
  ): DynamicModule {
    return {
      module: CredentialsModule,
      imports: [infrastructure, rateLimiting],
      providers: [
        ApiKeyLookup,
        {
          provide: GATE,
          inject: [REDIS, RATE_LIMITER, ApiKeyLookup, READ_MODEL_STORE, GATE_READ_MODEL_STORE],
          useFactory: (
            redis: Redis | null,
            limiter: RateLimiter,
            lookup: ApiKeyLookup,
            store: ReadModelStore,
            records: ReadModelStore,
          ): Gate => {
            const limits = {
              perMinute: settings.perMinute,
              gatewayPerMinute: settings.gatewayPerMinute,
              gatewayUnknownPerMinute: settings.gatewayUnknownPerMinute,
            };
            if (!redis) return { gate: new StoreCredentialGate(limiter, lookup, limits, store), cache: null };
            // Both stores are in Redis exactly when REDIS_URL is set: then one script does it all.
            if (!(limiter instanceof RedisRateLimiter))
              throw new Error('REDIS_URL is set but the rate limiter is not in Redis');
            const shared = new RedisCredentialGate(limiter, settings.readModelNamespace, limits);
            if (settings.credentialCacheTtlMs === 0 && settings.leaseFraction === 0)
              return { gate: shared, cache: null };
            // Leases of 0 % are leases of one slot: the exact count, one round trip per request.
            const leased = new LeasedRateLimiter(limiter, { maxFraction: settings.leaseFraction });
            const cache = new CredentialCache({
              ttlMs: settings.credentialCacheTtlMs,
              maxEntries: CREDENTIAL_CACHE_ENTRIES,
            });
            // A gateway lookup reads its record from the gate's store only when that holds copies.
            const copies = records !== store ? records : null;
            return { gate: new CachedCredentialGate(shared, cache, leased, limits, copies), cache };
          },
        },
        {
          provide: CREDENTIAL_REVOCATIONS,
          inject: [GATE, CLUSTER, AppLogger],
          useFactory: (gate: Gate, cluster: ClusterServices | null, logging: AppLogger) =>
            CredentialRevocations.connect(
              gate.cache?.enabled ? gate.cache : null,
              cluster?.bus ?? null,
              settings.namespace,
              logging.for('rate-limiting'),
            ),
        },
        { provide: CREDENTIAL_GATE, inject: [GATE], useFactory: (gate: Gate): CredentialGate => gate.gate },
        // A key's hash is remembered beside its cached credential, and leaves with it.
        {
          provide: KEY_HASHES,
          inject: [GATE],
          useFactory: (gate: Gate): KeyHashes => gate.cache ?? UNCACHED_KEY_HASHES,
        },
      ],
      exports: [CREDENTIAL_GATE, CREDENTIAL_REVOCATIONS, KEY_HASHES, ApiKeyLookup],
    };
  }
}
