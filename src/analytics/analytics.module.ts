import { Module } from '@nestjs/common';
import { AnalyticsController } from './http/analytics.controller';
import { GetAnalyticsOverviewHandler } from './read/analytics.queries';

/** Analytics over the call records in ClickHouse (docs/analytics.md). */
@Module({
  controllers: [AnalyticsController],
  providers: [GetAnalyticsOverviewHandler],
})
export class AnalyticsModule {}
