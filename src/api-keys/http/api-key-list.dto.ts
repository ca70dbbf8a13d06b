import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, Matches } from 'class-validator';
import { CursorPaginationDto, CursorPaginationQueryDto } from '../../platform/http/pagination';
import { ApiKeyDto } from '../contracts/api-key.dto';

export class ListApiKeysQueryDto extends CursorPaginationQueryDto {
  @ApiPropertyOptional({ description: 'Keys of this account; omitted: the admin keys' })
  @IsOptional()
  @Matches(/^acct_[A-Za-z0-9]{1,64}$/, { message: 'account_id must be an account id (acct_…)' })
  account_id?: string;
}

export class ApiKeyListItemDto extends ApiKeyDto {
  @ApiProperty({ format: 'date-time', nullable: true, type: String }) revoked_at!: string | null;
  @ApiProperty({ format: 'date-time', nullable: true, type: String }) last_used_at!: string | null;
  @ApiProperty({ type: 'integer' }) request_count!: number;
  @ApiProperty({ type: 'integer', description: 'Responses with status 400 or above' }) error_count!: number;
}

export class ApiKeyListDto {
  @ApiProperty({ type: [ApiKeyListItemDto] }) api_keys!: ApiKeyListItemDto[];
  @ApiProperty({ type: CursorPaginationDto }) pagination!: CursorPaginationDto;
}
