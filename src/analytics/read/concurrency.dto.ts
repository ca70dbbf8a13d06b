import { ApiProperty } from '@nestjs/swagger';

const PEAK = 'The most calls in progress at one instant (a call occupies [start_time, end))';
const PEAK_AT = 'The earliest instant at which the peak was reached; null when no call was in progress';
const MEAN = 'Call-time in progress divided by the time covered (the time-weighted mean), 2 decimals';

class ConcurrencyPeriodDto {
  @ApiProperty({ format: 'date-time' }) start_date!: string;
  @ApiProperty({ format: 'date-time' }) end_date!: string;
}

class ConcurrencyPointDto {
  @ApiProperty({ format: 'date-time', description: "The bucket's start (UTC hour or day)" }) timestamp!: string;
  @ApiProperty({ type: 'integer', minimum: 0, description: `${PEAK}, within the bucket and the range` })
  peak_concurrent_calls!: number;
  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: PEAK_AT })
  peak_at!: string | null;
  @ApiProperty({ minimum: 0, description: `${MEAN}, over the part of the bucket inside the range` })
  mean_concurrent_calls!: number;
}

/** The published shape of GET /v1/analytics/concurrency (docs/analytics.md, "Concurrent calls"). */
export class ConcurrencyDto {
  @ApiProperty({ type: ConcurrencyPeriodDto }) period!: ConcurrencyPeriodDto;
  @ApiProperty({ enum: ['daily', 'hourly'] }) granularity!: string;
  @ApiProperty({ type: String, nullable: true, description: 'The trunk filter, null for the whole account' })
  trunk_id!: string | null;
  @ApiProperty({ type: 'integer', minimum: 0, description: `${PEAK}, over the range` })
  peak_concurrent_calls!: number;
  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: PEAK_AT })
  peak_at!: string | null;
  @ApiProperty({ minimum: 0, description: `${MEAN}, over the range` }) mean_concurrent_calls!: number;
  @ApiProperty({
    type: [ConcurrencyPointDto],
    description: 'One entry per hour or day touching the range, in order; a call spanning buckets counts in each',
  })
  timeseries!: ConcurrencyPointDto[];
}
