import { ApiPropertyOptional, ApiProperty } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsInt, IsOptional, Matches, Max, Min } from 'class-validator';

/** Query strings arrive as text: digits become numbers, anything else stays text and fails IsInt. */
export const toInteger = () =>
  Transform(({ value }) => (typeof value === 'string' && /^-?\d{1,15}$/.test(value) ? Number(value) : value));

export class PaginationQueryDto {
  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: 100, default: 20 })
  @IsOptional()
  @toInteger()
  @IsInt({ message: 'limit must be an integer between 1 and 100' })
  @Min(1, { message: 'limit must be an integer between 1 and 100' })
  @Max(100, { message: 'limit must be an integer between 1 and 100' })
  limit: number = 20;

  @ApiPropertyOptional({ type: 'integer', minimum: 0, default: 0 })
  @IsOptional()
  @toInteger()
  @IsInt({ message: 'offset must be a non-negative integer' })
  @Min(0, { message: 'offset must be a non-negative integer' })
  offset: number = 0;
}

export class PaginationDto {
  @ApiProperty({ type: 'integer' }) limit!: number;
  @ApiProperty({ type: 'integer' }) offset!: number;
  @ApiProperty({ type: 'integer', description: 'Number of matching items' }) total!: number;
}

/** A list that also pages by cursor: constant cost at any depth and stable under inserts. */
export class CursorPaginationQueryDto extends PaginationQueryDto {
  @ApiPropertyOptional({
    description: 'next_cursor of the previous page: continues after it at constant cost; not with offset',
  })
  @IsOptional()
  @Matches(/^[A-Za-z0-9_-]{1,512}$/, { message: 'cursor is not a cursor this API returned' })
  cursor?: string;
}

export class CursorPaginationDto extends PaginationDto {
  @ApiProperty({
    nullable: true,
    type: String,
    description: 'Pass as cursor for the next page; null on the last page',
  })
  next_cursor!: string | null;
  @ApiProperty() has_more!: boolean;
}
