import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, Matches } from 'class-validator';
import { CursorPaginationDto, CursorPaginationQueryDto } from '../../platform/http/pagination';
import { FAILURE_CLASSES } from '../../shared/failure-taxonomy';
import { CallListItem } from '../contracts/call-list-item';

const DATE_OR_INSTANT = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2}))?$/;
const E164 = /^\+[1-9]\d{1,14}$/;

export class ListCallsQueryDto extends CursorPaginationQueryDto {
  @ApiPropertyOptional()
  @IsOptional()
  @Matches(/^conn_[A-Za-z0-9]{1,64}$/, { message: 'trunk_id must be a trunk id (conn_…)' })
  trunk_id?: string;

  @ApiPropertyOptional({ enum: ['connected', 'failed', 'disconnected'] })
  @IsOptional()
  @IsIn(['connected', 'failed', 'disconnected'], { message: 'status must be connected, failed or disconnected' })
  status?: 'connected' | 'failed' | 'disconnected';

  @ApiPropertyOptional({ description: 'Calls starting on or after this instant (or date)' })
  @IsOptional()
  @Matches(DATE_OR_INSTANT, { message: 'start_date must be an ISO 8601 instant or date' })
  start_date?: string;

  @ApiPropertyOptional({
    description: 'Calls starting on or before this instant (a date means the end of that UTC day)',
  })
  @IsOptional()
  @Matches(DATE_OR_INSTANT, { message: 'end_date must be an ISO 8601 instant or date' })
  end_date?: string;

  @ApiPropertyOptional({ description: 'Exact caller number (E.164; matches from_e164)' })
  @IsOptional()
  @Matches(E164, { message: 'from must be an E.164 number' })
  from?: string;

  @ApiPropertyOptional({ description: 'Exact called number (E.164; matches to_e164)' })
  @IsOptional()
  @Matches(E164, { message: 'to must be an E.164 number' })
  to?: string;

  @ApiPropertyOptional({ enum: ['inbound', 'outbound'] })
  @IsOptional()
  @IsIn(['inbound', 'outbound'], { message: 'direction must be inbound or outbound' })
  direction?: 'inbound' | 'outbound';
}

export class CallListItemDto implements CallListItem {
  @ApiProperty() id!: string;
  @ApiProperty() trunk_id!: string;
  @ApiProperty({ description: 'The caller: E.164, or as the gateway saw it (anonymous, a SIP user, a URI)' })
  from!: string;
  @ApiProperty({ description: 'The called party: E.164, or as the gateway saw it' }) to!: string;
  @ApiProperty({ nullable: true, type: String, description: 'from in E.164 when it is (or holds) a number' })
  from_e164!: string | null;
  @ApiProperty({ nullable: true, type: String, description: 'to in E.164 when it is (or holds) a number' })
  to_e164!: string | null;
  @ApiProperty({ enum: ['connected', 'failed', 'disconnected'] }) status!: string;
  @ApiProperty({ type: 'integer' }) duration_seconds!: number;
  @ApiProperty({ format: 'date-time' }) start_time!: string;
  @ApiProperty({ format: 'date-time', nullable: true, type: String }) end_time!: string | null;
  @ApiProperty({ nullable: true, type: 'integer' }) carrier_lag_ms!: number | null;
  @ApiProperty({ nullable: true, type: 'integer' }) ai_latency_ms!: number | null;
  @ApiProperty({ nullable: true, type: 'integer' }) gateway_processing_ms!: number | null;
  @ApiProperty({ enum: ['inbound', 'outbound'] }) direction!: string;
  @ApiProperty({ format: 'date-time', nullable: true, type: String, description: 'INVITE received by the gateway' })
  invite_at!: string | null;
  @ApiProperty({ format: 'date-time', nullable: true, type: String, description: 'First ringing (180/183)' })
  ringing_at!: string | null;
  @ApiProperty({ format: 'date-time', nullable: true, type: String, description: '200 OK from the agent' })
  answered_at!: string | null;
  @ApiProperty({ nullable: true, type: 'integer', description: "The INVITE's final SIP response code" })
  sip_code!: number | null;
  @ApiProperty({
    nullable: true,
    enum: [...FAILURE_CLASSES],
    description: 'The failure taxonomy (docs/sip-gateway.md)',
  })
  failure_class!: string | null;
  @ApiProperty({
    type: 'integer',
    description: 'Answer to end in whole seconds; 0 when never answered (duration_seconds includes ringing)',
  })
  billable_seconds!: number;
  @ApiProperty({
    nullable: true,
    type: Number,
    minimum: 1,
    maximum: 4.5,
    description: 'Mean opinion score (ITU-T G.107 E-model) the media gateway measured; null when not measured',
  })
  mos!: number | null;
}

export class CallPaginationDto extends CursorPaginationDto {}

export class CallListDto {
  @ApiProperty({ type: [CallListItemDto] }) calls!: CallListItemDto[];
  @ApiProperty({ type: CallPaginationDto }) pagination!: CallPaginationDto;
}

export class CallMetricsDto {
  @ApiProperty({ nullable: true, type: 'integer' }) carrier_lag_ms!: number | null;
  @ApiProperty({ nullable: true, type: 'integer' }) ai_latency_ms!: number | null;
  @ApiProperty({ nullable: true, type: 'integer' }) gateway_processing_ms!: number | null;
  @ApiProperty({ nullable: true, type: Number }) packet_loss_percent!: number | null;
  @ApiProperty({ nullable: true, type: 'integer' }) jitter_ms!: number | null;
  @ApiProperty({ nullable: true, type: String }) codec_used!: string | null;
  @ApiProperty({ nullable: true, type: Number, minimum: 1, maximum: 4.5, description: 'As at top level' })
  mos!: number | null;
}

export class TurnDto {
  @ApiProperty({ type: 'integer', minimum: 1 }) turn_number!: number;
  @ApiProperty({ enum: ['caller', 'agent'] }) speaker!: string;
  @ApiProperty({ type: 'integer' }) duration_ms!: number;
  @ApiProperty({ type: 'integer' }) processing_time_ms!: number;
  @ApiProperty({ description: 'An agent turn cut short by the caller speaking (barge-in); false when not reported' })
  interrupted!: boolean;
  @ApiProperty({ nullable: true, type: 'integer', description: "Start of the turn in ms after the call's start_time" })
  start_offset_ms!: number | null;
}

export class CallDetailDto extends CallListItemDto {
  @ApiProperty({ nullable: true, type: String }) sip_reason!: string | null;
  @ApiProperty({ nullable: true, type: 'integer', description: 'Q.850 cause from a Reason header' })
  q850_cause!: number | null;
  @ApiProperty({ nullable: true, type: Boolean, description: 'Whether calling again may succeed' })
  retryable!: boolean | null;
  @ApiProperty({ nullable: true, type: String, description: "The carrier's source IP address" })
  source_address!: string | null;
  @ApiPropertyOptional() disconnect_reason?: string;
  @ApiProperty({ type: CallMetricsDto }) metrics!: CallMetricsDto;
  @ApiProperty({ type: [TurnDto] }) turns!: TurnDto[];
  @ApiProperty({ description: 'Raw SIP signalling, lines separated by \\n' }) sip_trace!: string;
}
