import { DynamicModule, Inject, Module, OnApplicationShutdown } from '@nestjs/common';
import type { Redis } from 'ioredis';
import { REDIS } from '../infrastructure/infrastructure.module';
import { MemoryKeyUsageStore } from './memory.key-usage-store';
import { MemoryRateLimiter } from './memory.rate-limiter';
import { KEY_USAGE_STORE, KeyUsageStore, RATE_LIMITER, RateLimiter } from './rate-limiter.port';
import { RedisKeyUsageStore } from './redis.key-usage-store';
import { RedisRateLimiter } from './redis.rate-limiter';

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

/**
 * Rate limits and key usage: the limiter and the usage store (Redis when REDIS_URL is set, shared
 * by every instance; process memory otherwise). The window arithmetic is rate-window.ts. Applying
 * a limit to a request is the access layer's (src/access/: the credential gate counts each request
 * with this limiter). See docs/rate-limiting.md.
 */
@Module({})
export class RateLimitingModule implements OnApplicationShutdown {
  constructor(@Inject(KEY_USAGE_STORE) private readonly usage: KeyUsageStore) {}

  /** `infrastructure` is imported so that it shuts down after this module (Redis closes last). */
  static forRoot(settings: RateLimitSettings, infrastructure: DynamicModule): DynamicModule {
    return {
      module: RateLimitingModule,
      imports: [infrastructure],
      providers: [
        {
          // The store's own limiter: in Redis exactly when REDIS_URL is set.
          provide: RATE_LIMITER,
          inject: [REDIS],
          useFactory: (redis: Redis | null): RateLimiter =>
            redis
              ? new RedisRateLimiter(redis, settings.namespace, settings.readModelNamespace)
              : new MemoryRateLimiter(),
        },
        {
          provide: KEY_USAGE_STORE,
          inject: [REDIS],
          useFactory: (redis: Redis | null): KeyUsageStore =>
            redis ? new RedisKeyUsageStore(redis, settings.namespace) : new MemoryKeyUsageStore(),
        },
      ],
      exports: [RATE_LIMITER, KEY_USAGE_STORE],
    };
  }

  /** Usage counts still pending in this process are written; then the shared client closes. */
  async onApplicationShutdown(): Promise<void> {
    await this.usage.close();
  }
}
