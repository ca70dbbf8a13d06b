import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsInt, IsOptional, Matches, Max, Min } from 'class-validator';
import { toInteger } from '../../platform/http/pagination';

const DATE_OR_INSTANT = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2}))?$/;

export class AnalyticsQueryDto {
  @ApiPropertyOptional({ description: 'Instant or date (UTC); default 7 days before end_date' })
  @IsOptional()
  @Matches(DATE_OR_INSTANT, { message: 'start_date must be an ISO 8601 instant or date' })
  start_date?: string;

  @ApiPropertyOptional({ description: 'Instant or date (a date means the end of that UTC day); default now' })
  @IsOptional()
  @Matches(DATE_OR_INSTANT, { message: 'end_date must be an ISO 8601 instant or date' })
  end_date?: string;

  @ApiPropertyOptional()
  @IsOptional()
  @Matches(/^conn_[A-Za-z0-9]{1,64}$/, { message: 'trunk_id must be a trunk id (conn_…)' })
  trunk_id?: string;

  @ApiPropertyOptional({ enum: ['daily', 'hourly'], default: 'daily' })
  @IsOptional()
  @IsIn(['daily', 'hourly'], { message: 'granularity must be daily or hourly' })
  granularity: 'daily' | 'hourly' = 'daily';
}

const TRUNK_SERIES = 'trunk_series must be an integer between 1 and 20';

/** The overview's query: the range, and optionally the busiest trunks' own series. */
export class AnalyticsOverviewQueryDto extends AnalyticsQueryDto {
  @ApiPropertyOptional({
    type: 'integer',
    minimum: 1,
    maximum: 20,
    description:
      "Adds to each of the first N by_trunk entries its own timeseries, on the same buckets, equal to that trunk's GET /analytics/overview?trunk_id= timeseries (one request instead of N + 1)",
  })
  @IsOptional()
  @toInteger()
  @IsInt({ message: TRUNK_SERIES })
  @Min(1, { message: TRUNK_SERIES })
  @Max(20, { message: TRUNK_SERIES })
  trunk_series?: number;
}
