import { Inject, Injectable, OnModuleInit, Optional } from '@nestjs/common';
import type { Logger } from 'pino';
import { CallHoursWritten } from '../../calls/ingestion/call-batch-listener.port';
import { publishDrop } from '../../infrastructure/cluster/acked-drop';
import { CLUSTER, ClusterServices } from '../../infrastructure/cluster/cluster.port';
import { AppLogger } from '../../platform/logging/logging';
import { OverviewCache } from './overview-cache';

/** The longest a write waits for the other instances to drop their overview copies. */
export const OVERVIEW_DROP_ACK_TIMEOUT_MS = 2000;

type Message = [accountId: string, hours: number[]][];

/**
 * Keeps every instance's OverviewCache in step with the call-record writers: the hours a write
 * touched are dropped here and, through an acknowledged publish on the cluster bus, on every
 * other instance, before the write's requests are answered (the writer awaits hoursWritten). A
 * publish not acknowledged in time is logged; the copies' TTL (OVERVIEW_CACHE_TTL_MS) is then the
 * bound. A reconnect of the bus subscriber, after which drops may have been lost, empties the cache
 * here; while the subscriber is down the cache is not used (OverviewCache's `usable`). An instance
 * without a cache still publishes: the others may hold copies.
 */
@Injectable()
export class OverviewInvalidations implements CallHoursWritten, OnModuleInit {
  private readonly channel: string | null;
  private readonly logger: Logger;

  constructor(
    private readonly cache: OverviewCache,
    logging: AppLogger,
    @Optional() @Inject(CLUSTER) private readonly cluster: ClusterServices | null = null,
  ) {
    this.channel = cluster ? `${cluster.namespace}overview:hours-written` : null;
    this.logger = logging.for('overview-cache');
  }

  async onModuleInit(): Promise<void> {
    if (!this.cluster || !this.channel || !this.cache.enabled) return;
    this.cluster.bus.onResync(() => this.cache.clear());
    await this.cluster.bus.subscribeAcked(this.channel, (message) => {
      try {
        for (const [accountId, hours] of JSON.parse(message) as Message) this.cache.drop(accountId, hours);
      } catch {
        this.cache.clear(); // not what a writer sends: drop everything rather than keep a copy it meant
      }
    });
  }

  async hoursWritten(hours: ReadonlyMap<string, readonly number[]>): Promise<void> {
    if (hours.size === 0) return;
    for (const [accountId, touched] of hours) this.cache.drop(accountId, touched);
    if (!this.cluster || !this.channel) return;
    const message = JSON.stringify([...hours.entries()]);
    await publishDrop(this.cluster.bus, this.channel, message, OVERVIEW_DROP_ACK_TIMEOUT_MS, this.logger, {
      what: 'overview',
      ttlSetting: 'OVERVIEW_CACHE_TTL_MS',
    });
  }
}
