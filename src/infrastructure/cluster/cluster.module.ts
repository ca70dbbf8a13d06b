import { DynamicModule, Global, Inject, Module, OnApplicationShutdown } from '@nestjs/common';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { ClusterSettings } from '../infrastructure.settings';
import { REDIS } from '../infrastructure.module';
import { SECRET_BOX, SecretBox } from '../secrets/secret-box';
import { shareDestroys } from '../secrets/secret-destroy.broadcast';
import { CLUSTER, ClusterServices } from './cluster.port';
import { LEADER_LEASE, LeaderLease } from './leader-lease.port';
import { LocalLeaderLease } from './local.leader-lease';
import { RedisBus } from './redis.bus';
import { RedisFencedWriter } from './redis.fenced-writer';
import { RedisLeaderLease } from './redis.leader-lease';

const SHARED_DESTROYS = Symbol('SharedDestroys');

@Global()
@Module({})
export class ClusterModule implements OnApplicationShutdown {
  static forRoot(config: ClusterSettings, root: Logger): DynamicModule {
    const logger = root.child({ context: 'cluster' });
    return {
      module: ClusterModule,
      providers: [
        {
          provide: CLUSTER,
          inject: [REDIS],
          useFactory: async (redis: Redis | null): Promise<ClusterServices | null> => {
            if (!redis || !config.redisUrl) return null;
            const lease = new RedisLeaderLease(redis, config.namespace, {
              onEvent: (event, details) =>
                event === 'acquired' || event === 'released'
                  ? logger.info(details, `lease ${event}`)
                  : logger.warn(details, `lease ${event}`),
            });
            const bus = await RedisBus.connect(config.redisUrl, redis);
            return {
              redis,
              namespace: config.namespace,
              lease,
              writer: new RedisFencedWriter(redis, config.namespace),
              bus,
            };
          },
        },
        {
          provide: LEADER_LEASE,
          inject: [CLUSTER],
          useFactory: (cluster: ClusterServices | null): LeaderLease => {
            return (
              cluster?.lease ??
              new LocalLeaderLease((name, error) => logger.error({ lease: name, err: error }, 'leader task failed'))
            );
          },
        },
        {
          // Data keys destroyed through one instance stop working on all of them (per-instance caches).
          provide: SHARED_DESTROYS,
          inject: [CLUSTER, SECRET_BOX],
          useFactory: async (cluster: ClusterServices | null, box: SecretBox): Promise<boolean> => {
            if (cluster) await shareDestroys(box, cluster.bus, cluster.namespace);
            return cluster !== null;
          },
        },
      ],
      exports: [CLUSTER, LEADER_LEASE],
    };
  }

  constructor(@Inject(CLUSTER) private readonly cluster: ClusterServices | null) {}

  /** After every beforeApplicationShutdown hook: the leases are released by then. */
  async onApplicationShutdown(): Promise<void> {
    await this.cluster?.bus.close();
  }
}
