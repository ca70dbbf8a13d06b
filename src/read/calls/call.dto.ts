import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, Matches } from 'class-validator';
import { PaginationDto, PaginationQueryDto } from '../../platform/http/pagination';

const DATE_OR_INSTANT = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2}))?$/;
const E164 = /^\+[1-9]\d{1,14}$/;

export class ListCallsQueryDto extends PaginationQueryDto {
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

  @ApiPropertyOptional({ description: 'Exact caller number (E.164)' })
  @IsOptional()
  @Matches(E164, { message: 'from must be an E.164 number' })
  from?: string;

  @ApiPropertyOptional({ description: 'Exact called number (E.164)' })
  @IsOptional()
  @Matches(E164, { message: 'to must be an E.164 number' })
  to?: string;

  @ApiPropertyOptional({ enum: ['inbound', 'outbound'] })
  @IsOptional()
  @IsIn(['inbound', 'outbound'], { message: 'direction must be inbound or outbound' })
  direction?: 'inbound' | 'outbound';

  @ApiPropertyOptional({ description: 'next_cursor of the previous page; continues after it at constant cost' })
  @IsOptional()
  @Matches(/^[A-Za-z0-9_-]{1,512}$/, { message: 'cursor is not a cursor this API returned' })
  cursor?: string;
}

export class CallListItemDto {
  @ApiProperty() id!: string;
  @ApiProperty() trunk_id!: string;
  @ApiProperty() from!: string;
  @ApiProperty() to!: string;
  @ApiProperty({ enum: ['connected', 'failed', 'disconnected'] }) status!: string;
  @ApiProperty() duration_seconds!: number;
  @ApiProperty({ format: 'date-time' }) start_time!: string;
  @ApiProperty({ format: 'date-time', nullable: true, type: String }) end_time!: string | null;
  @ApiProperty({ nullable: true, type: Number }) carrier_lag_ms!: number | null;
  @ApiProperty({ nullable: true, type: Number }) ai_latency_ms!: number | null;
  @ApiProperty({ nullable: true, type: Number }) gateway_processing_ms!: number | null;
  @ApiProperty({ enum: ['inbound', 'outbound'] }) direction!: string;
}

export class CallPaginationDto extends PaginationDto {
  @ApiProperty({ nullable: true, type: String }) next_cursor!: string | null;
  @ApiProperty() has_more!: boolean;
}

export class CallListDto {
  @ApiProperty({ type: [CallListItemDto] }) calls!: CallListItemDto[];
  @ApiProperty({ type: CallPaginationDto }) pagination!: CallPaginationDto;
}

export class CallMetricsDto {
  @ApiProperty({ nullable: true, type: Number }) carrier_lag_ms!: number | null;
  @ApiProperty({ nullable: true, type: Number }) ai_latency_ms!: number | null;
  @ApiProperty({ nullable: true, type: Number }) gateway_processing_ms!: number | null;
  @ApiProperty({ nullable: true, type: Number }) packet_loss_percent!: number | null;
  @ApiProperty({ nullable: true, type: Number }) jitter_ms!: number | null;
  @ApiProperty({ nullable: true, type: String }) codec_used!: string | null;
}

export class TurnDto {
  @ApiProperty() turn_number!: number;
  @ApiProperty({ enum: ['caller', 'agent'] }) speaker!: string;
  @ApiProperty() duration_ms!: number;
  @ApiProperty() processing_time_ms!: number;
}

export class CallDetailDto extends CallListItemDto {
  @ApiPropertyOptional() disconnect_reason?: string;
  @ApiProperty({ type: CallMetricsDto }) metrics!: CallMetricsDto;
  @ApiProperty({ type: [TurnDto] }) turns!: TurnDto[];
  @ApiProperty({ description: 'Raw SIP signalling, lines separated by \\n' }) sip_trace!: string;
}
