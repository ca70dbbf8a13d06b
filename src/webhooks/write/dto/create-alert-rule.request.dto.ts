import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsInt, IsNumber, IsOptional, IsString, Length, Matches, Max, Min } from 'class-validator';
import { ALERT_COMPARISONS, ALERT_METRICS, AlertComparison, AlertMetric } from '../../domain/alert-rule.events';

export class CreateAlertRuleRequestDto {
  @ApiPropertyOptional({ maxLength: 200 })
  @IsOptional()
  @IsString({ message: 'name must be a string' })
  @Length(1, 200, { message: 'name must be 1-200 characters' })
  name?: string;

  @ApiProperty({ enum: ALERT_METRICS, description: 'As GET /analytics/overview computes it over the window' })
  @IsIn(ALERT_METRICS, { message: `metric must be one of ${ALERT_METRICS.join(', ')}` })
  metric!: AlertMetric;

  @ApiProperty({ enum: ALERT_COMPARISONS, description: 'The alert holds while `metric <comparison> threshold`' })
  @IsIn(ALERT_COMPARISONS, { message: 'comparison must be gt, gte, lt or lte' })
  comparison!: AlertComparison;

  @ApiProperty({ minimum: 0, maximum: 1e9 })
  @IsNumber({ allowNaN: false, allowInfinity: false }, { message: 'threshold must be a number from 0 to 1000000000' })
  @Min(0, { message: 'threshold must be a number from 0 to 1000000000' })
  @Max(1e9, { message: 'threshold must be a number from 0 to 1000000000' })
  threshold!: number;

  @ApiProperty({
    type: 'integer',
    minimum: 5,
    maximum: 1440,
    description: 'The trailing window the metric is computed over (5 minutes to 24 hours)',
  })
  @IsInt({ message: 'window_minutes must be an integer from 5 to 1440' })
  @Min(5, { message: 'window_minutes must be an integer from 5 to 1440' })
  @Max(1440, { message: 'window_minutes must be an integer from 5 to 1440' })
  window_minutes!: number;

  @ApiPropertyOptional({ description: 'Only this trunk of the account; omitted: every trunk' })
  @IsOptional()
  @IsString({ message: 'trunk_id must be a string' })
  @Matches(/^conn_[A-Za-z0-9]{1,64}$/, { message: 'trunk_id must be a trunk id (conn_…)' })
  trunk_id?: string;
}
