import { Controller, Get, Inject, Query } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiOkResponse, ApiTags, ApiOperation } from '@nestjs/swagger';
import { accountOf, Ctx, RequestContext } from '../../platform/http/request-context';
import { CLOCK, Clock } from '../../shared/clock';
import { AnalyticsOverviewQueryDto, AnalyticsQueryDto } from '../read/analytics.dto';
import { AnalyticsOverviewDto } from '../read/analytics-overview.dto';
import { GetAnalyticsOverview } from '../read/analytics.queries';
import { ConcurrencyDto } from '../read/concurrency.dto';
import { GetConcurrency } from '../read/concurrency.queries';

@ApiTags('analytics')
@ApiBearerAuth()
@Controller('v1/analytics')
export class AnalyticsController {
  constructor(
    private readonly queries: QueryBus,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  @Get('overview')
  @ApiOperation({
    operationId: 'getAnalyticsOverview',
    description:
      "Call totals, success rate, durations, latency and quality figures, and the codec, provider and trunk breakdowns of the account's calls over a time range.",
    summary: 'Get aggregated call analytics',
  })
  @ApiOkResponse({
    type: AnalyticsOverviewDto,
    description:
      'period, summary, performance (p95/p99 of per-call total latency, within 1%), quality (codec_distribution in percent of calls reporting a codec), by_provider, by_trunk (with trunk_series=N, the first N with their own timeseries), timeseries (every bucket, empty ones included), failures (failed calls by class and by final SIP code), signalling, rejections (by reason and by SIP code)',
  })
  overview(@Query() query: AnalyticsOverviewQueryDto, @Ctx() ctx: RequestContext): Promise<object> {
    return this.queries.execute(new GetAnalyticsOverview(accountOf(ctx), query, this.clock.now()));
  }

  @Get('concurrency')
  @ApiOperation({
    operationId: 'getConcurrency',
    summary: 'Get peak and mean concurrent calls per bucket',
    description:
      "From the calls' start and end times (end_time, else start_time + duration_seconds; at most 7 days). start_date, end_date, granularity and trunk_id as for the overview. Exact: one sweep over the calls' starts and ends (docs/analytics.md).",
  })
  @ApiOkResponse({ type: ConcurrencyDto })
  concurrency(@Query() query: AnalyticsQueryDto, @Ctx() ctx: RequestContext): Promise<object> {
    return this.queries.execute(new GetConcurrency(accountOf(ctx), query, this.clock.now()));
  }
}
