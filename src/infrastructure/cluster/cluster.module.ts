import { Global, Inject, Module, OnApplicationShutdown } from '@nestjs/common';
import type { Redis } from 'ioredis';
import { APP_CONFIG, AppConfig } from '../../platform/config/app-config';
import { AppLogger } from '../../platform/logging/logging';
import { REDIS } from '../infrastructure.module';
import { SECRET_BOX, SecretBox } from '../secrets/secret-box';
import { shareDestroys } from '../secrets/secret-destroy.broadcast';
import { LEADER_LEASE, LeaderLease } from './leader-lease.port';
import { LocalLeaderLease } from './local.leader-lease';
import { RedisBus } from './redis.bus';
import { RedisFencedWriter } from './redis.fenced-writer';
import { RedisLeaderLease } from './redis.leader-lease';

/** What instances sharing one Redis use to coordinate: leases, fenced writes, pub/sub. */
export interface ClusterServices {
  redis: Redis;
  /** REDIS_NAMESPACE: leases, channels and shared checkpoints live under it. */
  namespace: string;
  lease: RedisLeaderLease;
  writer: RedisFencedWriter;
  bus: RedisBus;
}

/** null without REDIS_URL: one process, nothing to coordinate. */
export const CLUSTER = Symbol('Cluster');
const SHARED_DESTROYS = Symbol('SharedDestroys');

@Global()
@Module({
  providers: [
    {
      provide: CLUSTER,
      inject: [APP_CONFIG, REDIS, AppLogger],
      useFactory: async (
        config: AppConfig,
        redis: Redis | null,
        logging: AppLogger,
      ): Promise<ClusterServices | null> => {
        if (!redis || !config.redisUrl) return null;
        const logger = logging.for('cluster');
        const lease = new RedisLeaderLease(redis, config.redisNamespace, {
          onEvent: (event, details) =>
            event === 'acquired' || event === 'released'
              ? logger.info(details, `lease ${event}`)
              : logger.warn(details, `lease ${event}`),
        });
        const bus = await RedisBus.connect(config.redisUrl, redis);
        return {
          redis,
          namespace: config.redisNamespace,
          lease,
          writer: new RedisFencedWriter(redis, config.redisNamespace),
          bus,
        };
      },
    },
    {
      provide: LEADER_LEASE,
      inject: [CLUSTER, AppLogger],
      useFactory: (cluster: ClusterServices | null, logging: AppLogger): LeaderLease => {
        const logger = logging.for('cluster');
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
})
export class ClusterModule implements OnApplicationShutdown {
  constructor(@Inject(CLUSTER) private readonly cluster: ClusterServices | null) {}

  /** After every beforeApplicationShutdown hook: the leases are released by then. */
  async onApplicationShutdown(): Promise<void> {
    await this.cluster?.bus.close();
  }
}
