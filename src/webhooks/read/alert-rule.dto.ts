import { ApiProperty } from '@nestjs/swagger';
import { CursorPaginationDto } from '../../platform/http/pagination';
import { AlertRuleView } from '../projections/webhook-views';
import { ALERT_COMPARISONS, ALERT_METRICS } from '../domain/alert-rule.events';

export class AlertRuleDto {
  @ApiProperty({ example: 'ar_…' }) id!: string;
  @ApiProperty({ nullable: true, type: String }) name!: string | null;
  @ApiProperty({ enum: ALERT_METRICS }) metric!: string;
  @ApiProperty({ enum: ALERT_COMPARISONS }) comparison!: string;
  @ApiProperty() threshold!: number;
  @ApiProperty({ type: 'integer', minimum: 5, maximum: 1440 }) window_minutes!: number;
  @ApiProperty({ nullable: true, type: String, description: 'null: every trunk of the account' }) trunk_id!:
    string | null;
  @ApiProperty({ enum: ['ok', 'triggered'] }) state!: string;
  @ApiProperty({ nullable: true, type: Number, description: 'The metric at the last change of state' }) last_value!:
    number | null;
  @ApiProperty({ format: 'date-time', nullable: true, type: String }) triggered_at!: string | null;
  @ApiProperty({ format: 'date-time', nullable: true, type: String }) resolved_at!: string | null;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
}

export class AlertRuleListDto {
  @ApiProperty({ type: [AlertRuleDto] }) alert_rules!: AlertRuleDto[];
  @ApiProperty({ type: CursorPaginationDto }) pagination!: CursorPaginationDto;
}

export function alertRuleDto(v: AlertRuleView): AlertRuleDto {
  return {
    id: v.id,
    name: v.name,
    metric: v.metric,
    comparison: v.comparison,
    threshold: v.threshold,
    window_minutes: v.window_minutes,
    trunk_id: v.trunk_id,
    state: v.state,
    last_value: v.last_value,
    triggered_at: v.triggered_at,
    resolved_at: v.resolved_at,
    created_at: v.created_at,
  };
}
