import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, Matches } from 'class-validator';

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
