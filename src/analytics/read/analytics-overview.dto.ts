import { ApiProperty, ApiPropertyOptional, ApiPropertyOptions } from '@nestjs/swagger';
import { REJECTION_REASONS } from '../../rejections/rejection';
import { FAILURE_CLASSES } from '../../shared/failure-taxonomy';

/** The published shape of GET /v1/analytics/overview (api.md's table; decisions.md's rules). */
class PeriodDto {
  @ApiProperty({ format: 'date-time' }) start_date!: string;
  @ApiProperty({ format: 'date-time' }) end_date!: string;
}

class SummaryDto {
  @ApiProperty({ type: 'integer' }) total_calls!: number;
  @ApiProperty({ type: 'integer' }) connected_calls!: number;
  @ApiProperty({ type: 'integer' }) failed_calls!: number;
  @ApiProperty({ minimum: 0, maximum: 100, description: '100 × connected / total, 2 decimals; 0 without calls' })
  success_rate!: number;
  @ApiProperty({ type: 'integer' }) total_duration_seconds!: number;
  @ApiProperty({
    description:
      'total_duration_seconds / total_calls: every call, ringing included (see avg_billable_seconds for talk time)',
  })
  avg_duration_seconds!: number;
  @ApiProperty({ type: 'integer', description: 'Calls the agent answered' }) answered_calls!: number;
  @ApiProperty({ type: 'integer', description: 'Sum of billable_seconds (answer → end)' })
  total_billable_seconds!: number;
  @ApiProperty({ description: 'total_billable_seconds / answered_calls (answered calls only; 0 when none)' })
  avg_billable_seconds!: number;
}

const PERCENTILE =
  'Percentile of per-call total latency (carrier + AI + gateway) over the calls reporting one, within 1% (or 1 ms) of the nearest rank; 0 without such calls';

class PerformanceDto {
  @ApiProperty({ type: 'integer' }) avg_carrier_lag_ms!: number;
  @ApiProperty({ type: 'integer' }) avg_ai_latency_ms!: number;
  @ApiProperty({ type: 'integer' }) avg_gateway_processing_ms!: number;
  @ApiProperty({ type: 'integer' }) avg_total_latency_ms!: number;
  @ApiProperty({ type: 'integer', description: PERCENTILE })
  p50_latency_ms!: number;
  @ApiProperty({ type: 'integer', description: PERCENTILE })
  p95_latency_ms!: number;
  @ApiProperty({ type: 'integer', description: PERCENTILE }) p99_latency_ms!: number;
}

class QualityDto {
  @ApiProperty() avg_packet_loss_percent!: number;
  @ApiProperty({ type: 'integer' }) avg_jitter_ms!: number;
  @ApiProperty({
    nullable: true,
    type: Number,
    minimum: 1,
    maximum: 4.5,
    description: 'Mean MOS of the calls that report one (2 decimals); null when none does',
  })
  avg_mos!: number | null;
  @ApiProperty({
    type: 'object',
    selfRequired: true,
    additionalProperties: { type: 'number' },
    required: ['G711', 'G722'],
    properties: { G711: { type: 'number' }, G722: { type: 'number' } },
    description: 'Percent of calls per codec; always G711 and G722, other codecs under their upper-case name',
  })
  codec_distribution!: Record<string, number>;
}

class ProviderBreakdownDto {
  @ApiProperty({ enum: ['openai', 'elevenlabs', 'custom'] }) provider!: string;
  @ApiProperty({ type: 'integer' }) call_count!: number;
  @ApiProperty({ minimum: 0, maximum: 100 }) success_rate!: number;
  @ApiProperty({ type: 'integer' }) avg_latency_ms!: number;
}

class TimeseriesPointDto {
  @ApiProperty({ format: 'date-time' }) timestamp!: string;
  @ApiProperty({ type: 'integer' }) calls!: number;
  @ApiProperty({ type: 'integer' }) avg_latency_ms!: number;
  @ApiProperty({ minimum: 0, maximum: 100 }) success_rate!: number;
  @ApiProperty({ type: 'integer', description: `${PERCENTILE}, of this bucket's calls` }) p50_latency_ms!: number;
  @ApiProperty({ type: 'integer', description: `${PERCENTILE}, of this bucket's calls` }) p95_latency_ms!: number;
  @ApiProperty({ type: 'integer', description: `${PERCENTILE}, of this bucket's calls` }) p99_latency_ms!: number;
}

class TrunkBreakdownDto {
  @ApiProperty() trunk_id!: string;
  @ApiProperty() trunk_name!: string;
  @ApiProperty({ type: 'integer' }) call_count!: number;
  @ApiProperty({ minimum: 0, maximum: 100 }) success_rate!: number;
  @ApiPropertyOptional({
    type: [TimeseriesPointDto],
    description:
      "With trunk_series=N, on the first N entries only: this trunk's own timeseries, on the same buckets as the overview's, equal to GET /analytics/overview?trunk_id=<this trunk>'s timeseries",
  })
  timeseries?: TimeseriesPointDto[];
}

const countsOf = (keys: readonly string[], description: string): ApiPropertyOptions => ({
  type: 'object',
  required: [...keys],
  properties: Object.fromEntries(keys.map((key) => [key, { type: 'integer' as const }])),
  description,
});

class SipCodeCountDto {
  @ApiProperty({
    type: 'integer',
    nullable: true,
    minimum: 100,
    maximum: 699,
    description: 'The final SIP response code; null for failed calls whose record has no sip_code',
  })
  sip_code!: number | null;
  @ApiProperty({ type: 'integer', minimum: 1 }) count!: number;
}

const BY_SIP_CODE = 'the most frequent first (ties by code, null last); codes with no call left out';

class FailuresDto {
  @ApiProperty(
    countsOf(
      [...FAILURE_CLASSES, 'unclassified'],
      'Failed calls by failure class (docs/sip-gateway.md); unclassified: records without a sip_code',
    ),
  )
  by_class!: Record<string, number>;
  @ApiProperty({
    type: [SipCodeCountDto],
    description: `Failed calls by the final SIP code of their INVITE (the record's sip_code), ${BY_SIP_CODE}; the counts add up to summary.failed_calls`,
  })
  by_sip_code!: SipCodeCountDto[];
}

class SignallingDto {
  @ApiProperty({ type: 'integer', description: 'Answered calls whose invite_at and answered_at are known' })
  calls_with_setup_time!: number;
  @ApiProperty({ type: 'integer', description: 'Mean of ringing_at − invite_at' }) avg_post_dial_delay_ms!: number;
  @ApiProperty({ type: 'integer', description: 'Mean of answered_at − ringing_at' }) avg_ring_time_ms!: number;
  @ApiProperty({ type: 'integer', description: 'Mean of answered_at − invite_at' }) avg_setup_time_ms!: number;
}

class RejectionCountsDto {
  @ApiProperty({
    type: 'integer',
    description: 'Refused INVITEs in the range (GET /trunks/{id}/rejections lists them)',
  })
  total!: number;
  @ApiProperty(countsOf(REJECTION_REASONS, 'By reason; every reason present'))
  by_reason!: Record<string, number>;
  @ApiProperty({
    type: [SipCodeCountDto],
    description: `By the SIP code the gateway answered the INVITE with (never null here), ${BY_SIP_CODE}; the counts add up to total`,
  })
  by_sip_code!: SipCodeCountDto[];
}

export class AnalyticsOverviewDto {
  @ApiProperty({ type: PeriodDto }) period!: PeriodDto;
  @ApiProperty({ type: SummaryDto }) summary!: SummaryDto;
  @ApiProperty({ type: PerformanceDto }) performance!: PerformanceDto;
  @ApiProperty({ type: QualityDto }) quality!: QualityDto;
  @ApiProperty({ type: [ProviderBreakdownDto] }) by_provider!: ProviderBreakdownDto[];
  @ApiProperty({ type: [TrunkBreakdownDto] }) by_trunk!: TrunkBreakdownDto[];
  @ApiProperty({
    type: [TimeseriesPointDto],
    description: 'One entry per hour or day of the range, in order, empty buckets included',
  })
  timeseries!: TimeseriesPointDto[];
  @ApiProperty({ type: FailuresDto }) failures!: FailuresDto;
  @ApiProperty({ type: SignallingDto, description: 'From the signalling times a SIP gateway reports' })
  signalling!: SignallingDto;
  @ApiProperty({ type: RejectionCountsDto }) rejections!: RejectionCountsDto;
}
