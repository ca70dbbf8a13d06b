import { DynamicModule, Inject, Module, OnApplicationShutdown } from '@nestjs/common';
import type { Redis } from 'ioredis';
import { REDIS } from '../infrastructure/infrastructure.module';
import { READ_MODEL_STORE, ReadModelStore } from '../infrastructure/read-model/read-model-store.port';
import { ApiKeyLookup } from '../read/api-keys/api-key.lookup';
import { CREDENTIAL_GATE, CredentialGate } from './credential-gate';
import { MemoryKeyUsageStore } from './memory.key-usage-store';
import { MemoryRateLimiter } from './memory.rate-limiter';
import { KEY_USAGE_STORE, KeyUsageStore, RATE_LIMITER, RateLimiter } from './rate-limiter.port';
import { RedisCredentialGate } from './redis.credential-gate';
import { RedisKeyUsageStore } from './redis.key-usage-store';
import { RedisRateLimiter } from './redis.rate-limiter';
import { StoreCredentialGate } from './store.credential-gate';

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
}

/**
 * Rate limits and key usage: the limiter and usage store (Redis when REDIS_URL is set, shared by
 * every instance; process memory otherwise) and the credential gate that counts each request.
 * The window arithmetic is rate-window.ts. See docs/rate-limiting.md.
 */
const LIMITS = Symbol('Limits');
interface Limits {
  limiter: RateLimiter;
  gate: CredentialGate;
}

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
              return { limiter, gate: new StoreCredentialGate(limiter, lookup, limits, store) };
            }
            const limiter = new RedisRateLimiter(redis, settings.namespace, settings.readModelNamespace);
            return { limiter, gate: new RedisCredentialGate(limiter, settings.readModelNamespace, limits) };
          },
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
      exports: [RATE_LIMITER, KEY_USAGE_STORE, CREDENTIAL_GATE, ApiKeyLookup],
    };
  }

  /** Usage counts still pending in this process are written; then the shared client closes. */
  async onApplicationShutdown(): Promise<void> {
    await this.usage.close();
  }
}
