import { Module } from '@nestjs/common';
import {
  CALL_BATCH_OBSERVER,
  CALL_HOURS_WRITTEN,
  CallBatchObserver,
} from '../calls/ingestion/call-batch-listener.port';
import { CLICKHOUSE, ClickHouseExecutor } from '../infrastructure/clickhouse/clickhouse.port';
import { CLUSTER, ClusterServices } from '../infrastructure/cluster/cluster.port';
import { REJECTION_BATCH_OBSERVER } from '../rejections/ingestion/rejection-batch-observer.port';
import { TrunkHealthMonitor } from './health/trunk-health.monitor';
import { AnalyticsController } from './http/analytics.controller';
import { CallStreamController } from './http/call-stream.controller';
import { CallStreamReader } from './live/call-stream.reader';
import { CallStreams } from './live/call-streams';
import { StoredNotices } from './live/stored-notices';
import { GetAnalyticsOverviewHandler } from './read/analytics.queries';
import { GetConcurrencyHandler } from './read/concurrency.queries';
import { OverviewCache } from './read/overview-cache';
import {
  OVERVIEW_CACHE_MAX_ROWS,
  OVERVIEW_CACHE_SETTINGS,
  OverviewCacheSettings,
} from './read/overview-cache.settings';
import { OverviewInvalidations } from './read/overview-invalidations';

/**
 * Analytics over the call records in ClickHouse (docs/analytics.md), trunk health, and the live
 * call stream. The trunk health monitor and the stream's notices hear of each stored batch
 * (CALL_BATCH_OBSERVER, exported for the calls feature; REJECTION_BATCH_OBSERVER for the
 * rejections feature); the monitor reports a trunk's health through the trunk's own command.
 * The overview's whole-hours copies are dropped by the call-record writer (CALL_HOURS_WRITTEN).
 */
@Module({
  controllers: [AnalyticsController, CallStreamController],
  providers: [
    GetAnalyticsOverviewHandler,
    GetConcurrencyHandler,
    TrunkHealthMonitor,
    StoredNotices,
    CallStreamReader,
    CallStreams,
    {
      provide: CALL_BATCH_OBSERVER,
      inject: [TrunkHealthMonitor, StoredNotices],
      useFactory: (health: TrunkHealthMonitor, notices: StoredNotices): CallBatchObserver => ({
        callsStored: (records) => {
          health.callsStored(records);
          notices.callsStored(records);
        },
      }),
    },
    { provide: REJECTION_BATCH_OBSERVER, useExisting: StoredNotices },
    {
      provide: OverviewCache,
      inject: [OVERVIEW_CACHE_SETTINGS, CLICKHOUSE, { token: CLUSTER, optional: true }],
      useFactory: (settings: OverviewCacheSettings, clickhouse: ClickHouseExecutor, cluster: ClusterServices | null) =>
        new OverviewCache({
          // A ClickHouse server without the cluster bus may have writers this instance never hears of.
          ttlMs: clickhouse.kind === 'server' && !cluster ? 0 : settings.ttlMs,
          maxRows: OVERVIEW_CACHE_MAX_ROWS,
          usable: cluster ? () => cluster.bus.connected : undefined,
        }),
    },
    OverviewInvalidations,
    { provide: CALL_HOURS_WRITTEN, useExisting: OverviewInvalidations },
  ],
  exports: [CALL_BATCH_OBSERVER, REJECTION_BATCH_OBSERVER, CALL_HOURS_WRITTEN],
})
export class AnalyticsModule {}
