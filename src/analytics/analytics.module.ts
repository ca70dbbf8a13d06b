import { Module } from '@nestjs/common';
import { CALL_BATCH_OBSERVER, CallBatchObserver } from '../calls/ingestion/call-batch-listener.port';
import { REJECTION_BATCH_OBSERVER } from '../rejections/ingestion/rejection-batch-observer.port';
import { TrunkHealthMonitor } from './health/trunk-health.monitor';
import { AnalyticsController } from './http/analytics.controller';
import { CallStreamController } from './http/call-stream.controller';
import { CallStreamReader } from './live/call-stream.reader';
import { CallStreams } from './live/call-streams';
import { StoredNotices } from './live/stored-notices';
import { GetAnalyticsOverviewHandler } from './read/analytics.queries';
import { GetConcurrencyHandler } from './read/concurrency.queries';

/**
 * Analytics over the call records in ClickHouse (docs/analytics.md), trunk health, and the live
 * call stream. The trunk health monitor and the stream's notices hear of each stored batch
 * (CALL_BATCH_OBSERVER, exported for the calls feature; REJECTION_BATCH_OBSERVER for the
 * rejections feature); the monitor reports a trunk's health through the trunk's own command.
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
  ],
  exports: [CALL_BATCH_OBSERVER, REJECTION_BATCH_OBSERVER],
})
export class AnalyticsModule {}
