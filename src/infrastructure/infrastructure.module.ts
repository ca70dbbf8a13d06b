import { DynamicModule, Global, Inject, Module, OnApplicationShutdown } from '@nestjs/common';
import { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { createClickHouse } from './clickhouse/clickhouse.factory';
import { CLICKHOUSE, ClickHouseExecutor } from './clickhouse/clickhouse.port';
import { createEventStore } from './event-store/event-store.factory';
import { EVENT_STORE, EventStore } from './event-store/event-store.port';
import { MemoryReadModelStore } from './read-model/memory.read-model-store';
import { READ_MODEL_STORE, ReadModelStore } from './read-model/read-model-store.port';
import { RedisReadModelStore } from './read-model/redis.read-model-store';
import { closeRedisClient, createRedisClient, waitForReady } from './redis/redis.client';
import { createProviderValidator } from './providers/provider-validator.factory';
import { PROVIDER_VALIDATOR, ProviderValidator } from './providers/provider-validator.port';
import { createKeyVault } from './secrets/key-vault.factory';
import { loadMasterKey } from './secrets/master-key';
import { SECRET_BOX, AesGcmSecretBox, SecretBox } from './secrets/secret-box';
import type { InfrastructureSettings } from './infrastructure.settings';

export const REDIS = Symbol('Redis');

/**
 * Stores chosen by configuration: Redis when a Redis URL is given (shared by every instance),
 * process memory otherwise; the event store from its URL (embedded PGlite when unset); ClickHouse
 * from its URL (embedded chDB when unset). Settings arrive as plain values (InfrastructureSettings).
 */
@Global()
@Module({})
export class InfrastructureModule implements OnApplicationShutdown {
  static forRoot(config: InfrastructureSettings, root: Logger): DynamicModule {
    return {
      module: InfrastructureModule,
      providers: [
        {
          provide: REDIS,
          useFactory: async (): Promise<Redis | null> => {
            const logger = root.child({ context: 'redis' });
            if (!config.redisUrl) return null;
            let lastWarned = 0;
            const redis = createRedisClient(config.redisUrl, {
              connectionName: 'trunkline',
              commandTimeoutMs: config.redisCommandTimeoutMs,
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
          useFactory: (): Promise<EventStore> =>
            createEventStore({
              url: config.eventStoreUrl ?? undefined,
              dataDir: config.dataDir,
              schema: config.eventStoreSchema,
              logger: root.child({ context: 'event-store' }),
            }),
        },
        {
          provide: READ_MODEL_STORE,
          inject: [REDIS],
          useFactory: (redis: Redis | null): ReadModelStore =>
            redis ? new RedisReadModelStore(redis, config.readModelNamespace) : new MemoryReadModelStore(),
        },
        {
          provide: SECRET_BOX,
          inject: [EVENT_STORE],
          useFactory: async (events: EventStore): Promise<SecretBox> => {
            const masterKey = await loadMasterKey({
              masterKey: config.masterKey,
              dataDir: config.dataDir,
              embedded: !config.eventStoreUrl,
            });
            return new AesGcmSecretBox(masterKey, await createKeyVault(events));
          },
        },
        {
          provide: CLICKHOUSE,
          useFactory: async (): Promise<ClickHouseExecutor> => {
            // The factory applies the schema migrations before handing the executor out.
            return createClickHouse({
              url: config.clickhouseUrl,
              cluster: config.clickhouseCluster,
              dataDir: config.dataDir,
              logger: root.child({ context: 'clickhouse' }),
            });
          },
        },
        {
          provide: PROVIDER_VALIDATOR,
          useFactory: (): ProviderValidator => createProviderValidator(config.providers),
        },
      ],
      exports: [REDIS, EVENT_STORE, READ_MODEL_STORE, SECRET_BOX, PROVIDER_VALIDATOR, CLICKHOUSE],
    };
  }

  constructor(
    @Inject(REDIS) private readonly redis: Redis | null,
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(CLICKHOUSE) private readonly clickhouse: ClickHouseExecutor,
  ) {}

  /** Runs after every other module's shutdown hook (projections stop first). */
  async onApplicationShutdown(): Promise<void> {
    await Promise.all([this.events.close(), this.clickhouse.close()]);
    if (this.redis) await closeRedisClient(this.redis);
  }
}
