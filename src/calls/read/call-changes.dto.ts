import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsInt, IsOptional, Matches, Max, Min } from 'class-validator';
import { toInteger } from '../../platform/http/pagination';
import { CallListItemDto } from './call.dto';

const LIMIT = 'limit must be an integer between 1 and 1000';

export class CallChangesQueryDto {
  @ApiPropertyOptional({
    description: "A next_cursor of this feed; without one, the feed starts at the account's first stored record",
  })
  @IsOptional()
  @Matches(/^[A-Za-z0-9_-]{1,200}$/, { message: 'cursor is not a cursor this API returned' })
  cursor?: string;

  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: 1000, default: 100 })
  @IsOptional()
  @toInteger()
  @IsInt({ message: LIMIT })
  @Min(1, { message: LIMIT })
  @Max(1000, { message: LIMIT })
  limit: number = 100;
}

export class CallChangeDto extends CallListItemDto {
  @ApiProperty({
    type: 'integer',
    description:
      'This stored version of the call (a re-sent record appears again with a higher one); keep the highest per id',
  })
  version!: number;
  @ApiProperty({ format: 'date-time', description: 'When this version was stored' }) stored_at!: string;
}

class CallChangesPageDto {
  @ApiProperty({ type: 'integer' }) limit!: number;
  @ApiProperty({ description: 'More records are stored after this page now' }) has_more!: boolean;
  @ApiProperty({
    description:
      'Where to continue: pass it as cursor, now or later (never null; at the end it picks up what is stored next)',
  })
  next_cursor!: string;
}

export class CallChangesDto {
  @ApiProperty({ type: [CallChangeDto], description: 'Records in the order they were stored' })
  calls!: CallChangeDto[];
  @ApiProperty({ type: CallChangesPageDto }) pagination!: CallChangesPageDto;
}
