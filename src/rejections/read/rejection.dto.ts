import { ApiProperty, ApiPropertyOptional, PickType } from '@nestjs/swagger';
import { IsIn, IsIP, IsOptional, Matches } from 'class-validator';
import { PaginationQueryDto } from '../../platform/http/pagination';
import { DATE_OR_INSTANT } from '../../platform/http/time-range';
import { REJECTION_REASONS } from '../rejection';

/** `limit` as every list takes it (1-100, default 20); pages continue by `cursor`. */
export class ListRejectionsQueryDto extends PickType(PaginationQueryDto, ['limit'] as const) {
  @ApiPropertyOptional({ description: 'Rejections at or after this instant (or date); default 7 days ago' })
  @IsOptional()
  @Matches(DATE_OR_INSTANT, { message: 'from must be an ISO 8601 instant or date' })
  from?: string;

  @ApiPropertyOptional({ description: 'Rejections at or before this instant (a date means the end of that UTC day)' })
  @IsOptional()
  @Matches(DATE_OR_INSTANT, { message: 'to must be an ISO 8601 instant or date' })
  to?: string;

  @ApiPropertyOptional({ description: 'next_cursor of the previous page' })
  @IsOptional()
  @Matches(/^[A-Za-z0-9_-]{1,512}$/, { message: 'cursor is not a cursor this API returned' })
  cursor?: string;
}

/** The operator's list of rejections that belong to no account: filters by reason and source too. */
export class ListUnownedRejectionsQueryDto extends ListRejectionsQueryDto {
  @ApiPropertyOptional({ enum: REJECTION_REASONS, description: 'Only rejections for this reason' })
  @IsOptional()
  @IsIn(REJECTION_REASONS, { message: `reason must be one of ${REJECTION_REASONS.join(', ')}` })
  reason?: string;

  @ApiPropertyOptional({ description: 'Only rejections of this source (an IPv4 or IPv6 address, exactly as stored)' })
  @IsOptional()
  @IsIP(undefined, { message: 'source_address must be an IPv4 or IPv6 address' })
  source_address?: string;
}

export class CallRejectionDto {
  @ApiProperty({ example: 'rej_2b1f…' }) id!: string;
  @ApiProperty({ format: 'date-time', description: 'When the gateway refused the INVITE' }) at!: string;
  @ApiProperty({ enum: REJECTION_REASONS }) reason!: string;
  @ApiProperty({ type: 'integer', example: 403 }) sip_code!: number;
  @ApiProperty({ nullable: true, type: String, example: 'Trunk inactive' }) sip_reason!: string | null;
  @ApiProperty({ description: "The carrier's IP address" }) source_address!: string;
  @ApiProperty({ nullable: true, type: String, description: 'As the carrier sent it, when well formed' })
  sip_username!: string | null;
  @ApiProperty({ nullable: true, type: String }) from!: string | null;
  @ApiProperty({ nullable: true, type: String }) to!: string | null;
}

export class CallRejectionPaginationDto {
  @ApiProperty({ type: 'integer' }) limit!: number;
  @ApiProperty({ nullable: true, type: String }) next_cursor!: string | null;
  @ApiProperty() has_more!: boolean;
}

export class CallRejectionListDto {
  @ApiProperty({ type: [CallRejectionDto] }) rejections!: CallRejectionDto[];
  @ApiProperty({ type: CallRejectionPaginationDto }) pagination!: CallRejectionPaginationDto;
}

/** A rejection as the live stream sends it: with its trunk and when it was stored. */
export class RejectionChangeDto extends CallRejectionDto {
  @ApiProperty({
    nullable: true,
    type: String,
    description: "The trunk it was for (null: the carrier named none of the account's trunks)",
  })
  trunk_id!: string | null;
  @ApiProperty({ format: 'date-time', description: 'When it was stored (the stream follows this order)' })
  stored_at!: string;
}
