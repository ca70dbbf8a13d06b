import { Global, Inject, Module, OnApplicationShutdown } from '@nestjs/common';
import { Redis } from 'ioredis';
import { AppLogger } from '../platform/logging/logging';
import { APP_CONFIG, AppConfig, readModelNamespace } from '../platform/config/app-config';
import { createClickHouse } from './clickhouse/clickhouse.factory';
import { CLICKHOUSE, ClickHouseExecutor } from './clickhouse/clickhouse.port';
import { createEventStore } from './event-store/event-store.factory';
import { EVENT_STORE, EventStore } from './event-store/event-store.port';
import { MemoryKeyUsageStore } from './rate-limit/memory.key-usage-store';
import { MemoryRateLimiter } from './rate-limit/memory.rate-limiter';
import { KEY_USAGE_STORE, KeyUsageStore, RATE_LIMITER, RateLimiter } from './rate-limit/rate-limiter.port';
import { RedisKeyUsageStore } from './rate-limit/redis.key-usage-store';
import { RedisRateLimiter } from './rate-limit/redis.rate-limiter';
import { MemoryReadModelStore } from './read-model/memory.read-model-store';
import { READ_MODEL_STORE, ReadModelStore } from './read-model/read-model-store.port';
import { RedisReadModelStore } from './read-model/redis.read-model-store';
import { closeRedisClient, createRedisClient, waitForReady } from './redis/redis.client';
import { createProviderValidator } from './providers/provider-validator.factory';
import { PROVIDER_VALIDATOR, ProviderValidator } from './providers/provider-validator.port';
import { createKeyVault } from './secrets/key-vault.factory';
import { loadMasterKey } from './secrets/master-key';
import { SECRET_BOX, SecretBox } from './secrets/secret-box';

export const REDIS = Symbol('Redis');

/**
 * Stores chosen by configuration: Redis when REDIS_URL is set (shared by every instance),
 * process memory otherwise; the event store from EVENT_STORE_URL (embedded PGlite when unset).
 */
@Global()
@Module({
  providers: [
    {
      provide: REDIS,
      inject: [APP_CONFIG, AppLogger],
      useFactory: async (config: AppConfig, logging: AppLogger): Promise<Redis | null> => {
        const logger = logging.for('redis');
        if (!config.redisUrl) return null;
        let lastWarned = 0;
        const redis = createRedisClient(config.redisUrl, {
          connectionName: 'trunkline',
          onError: (err) => {
            if (Date.now() - lastWarned < 5000) return;
            lastWarned = Date.now();
            logger.warn({ err: { message: err.message } }, 'redis connection error');
          },
        });
        await waitForReady(redis, 10_000);
        return redis;
      },
    },
    {
      provide: EVENT_STORE,
      inject: [APP_CONFIG, AppLogger],
      useFactory: (config: AppConfig, logging: AppLogger): Promise<EventStore> =>
        createEventStore({
          url: config.eventStoreUrl ?? undefined,
          dataDir: config.dataDir,
          schema: config.eventStoreSchema,
          logger: logging.for('event-store'),
        }),
    },
    {
      provide: READ_MODEL_STORE,
      inject: [APP_CONFIG, REDIS],
      useFactory: (config: AppConfig, redis: Redis | null): ReadModelStore =>
        redis ? new RedisReadModelStore(redis, readModelNamespace(config)) : new MemoryReadModelStore(),
    },
    {
      provide: RATE_LIMITER,
      inject: [APP_CONFIG, REDIS],
      useFactory: (config: AppConfig, redis: Redis | null): RateLimiter =>
        redis
          ? new RedisRateLimiter(redis, config.redisNamespace, readModelNamespace(config))
          : new MemoryRateLimiter(),
    },
    {
      provide: KEY_USAGE_STORE,
      inject: [APP_CONFIG, REDIS],
      useFactory: (config: AppConfig, redis: Redis | null): KeyUsageStore =>
        redis ? new RedisKeyUsageStore(redis, config.redisNamespace) : new MemoryKeyUsageStore(),
    },
    {
      provide: SECRET_BOX,
      inject: [APP_CONFIG, EVENT_STORE],
      useFactory: async (config: AppConfig, events: EventStore): Promise<SecretBox> => {
        const masterKey = await loadMasterKey({
          masterKey: config.masterKey,
          dataDir: config.dataDir,
          embedded: !config.eventStoreUrl,
        });
        return new SecretBox(masterKey, await createKeyVault(events));
      },
    },
    {
      provide: CLICKHOUSE,
      inject: [APP_CONFIG, AppLogger],
      useFactory: async (config: AppConfig, logging: AppLogger): Promise<ClickHouseExecutor> => {
        // The factory applies the schema migrations before handing the executor out.
        return createClickHouse({
          url: config.clickhouseUrl,
          cluster: config.clickhouseCluster,
          dataDir: config.dataDir,
          logger: logging.for('clickhouse'),
        });
      },
    },
    {
      provide: PROVIDER_VALIDATOR,
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig): ProviderValidator =>
        createProviderValidator({
          mode: config.providerValidation,
          openaiApiBase: config.openaiApiBase,
          elevenlabsApiBase: config.elevenlabsApiBase,
          timeoutMs: config.providerTimeoutMs,
          probeCustomEndpoints: config.providerProbeCustomEndpoints,
        }),
    },
  ],
  exports: [
    REDIS,
    EVENT_STORE,
    READ_MODEL_STORE,
    RATE_LIMITER,
    KEY_USAGE_STORE,
    SECRET_BOX,
    PROVIDER_VALIDATOR,
    CLICKHOUSE,
  ],
})
export class InfrastructureModule implements OnApplicationShutdown {
  constructor(
    @Inject(REDIS) private readonly redis: Redis | null,
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(CLICKHOUSE) private readonly clickhouse: ClickHouseExecutor,
    @Inject(KEY_USAGE_STORE) private readonly usage: KeyUsageStore,
  ) {}

  /** Runs after every other module's shutdown hook (projections stop first). */
  async onApplicationShutdown(): Promise<void> {
    // Usage counts still pending in this process are written before Redis closes.
    await Promise.all([this.events.close(), this.clickhouse.close(), this.usage.close()]);
    if (this.redis) await closeRedisClient(this.redis);
  }
}
