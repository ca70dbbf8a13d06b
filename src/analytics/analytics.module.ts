import { Module } from '@nestjs/common';
import { CALL_BATCH_OBSERVER } from '../calls/ingestion/call-batch-listener.port';
import { TrunkHealthMonitor } from './health/trunk-health.monitor';
import { AnalyticsController } from './http/analytics.controller';
import { GetAnalyticsOverviewHandler } from './read/analytics.queries';
import { GetConcurrencyHandler } from './read/concurrency.queries';

/**
 * Analytics over the call records in ClickHouse (docs/analytics.md), and trunk health: the
 * monitor hears of each stored batch (CALL_BATCH_OBSERVER, exported for the calls feature) and
 * reports a trunk's health through the trunk's own command.
 */
@Module({
  controllers: [AnalyticsController],
  providers: [
    GetAnalyticsOverviewHandler,
    GetConcurrencyHandler,
    TrunkHealthMonitor,
    { provide: CALL_BATCH_OBSERVER, useExisting: TrunkHealthMonitor },
  ],
  exports: [CALL_BATCH_OBSERVER],
})
export class AnalyticsModule {}
