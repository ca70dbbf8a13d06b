import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  ArrayMaxSize,
  ArrayNotEmpty,
  IsArray,
  IsIn,
  IsISO8601,
  IsOptional,
  IsString,
  Length,
  Matches,
} from 'class-validator';
import { SCOPES, Scope } from '../../../shared/api-key-scopes';

export class IssueApiKeyRequestDto {
  @ApiPropertyOptional({
    description: 'Account the key acts for. Omit only for keys whose scopes are ["admin"] or ["gateway"].',
  })
  @IsOptional()
  @IsString({ message: 'account_id must be a string' })
  @Matches(/^acct_[A-Za-z0-9]{1,64}$/, { message: 'account_id must be an account id (acct_…)' })
  account_id?: string;

  @ApiProperty({ minLength: 1, maxLength: 200 })
  @IsString({ message: 'name must be a string' })
  @Length(1, 200, { message: 'name must be 1-200 characters' })
  name!: string;

  @ApiProperty({
    enum: SCOPES,
    isArray: true,
    description:
      'full: everything of its account; read: GET only; ingest: /v1/ingest and /v1/gateway; admin: accounts and keys; gateway: a SIP gateway serving every account (/v1/ingest and /v1/gateway, any trunk, its own rate budget); audit: the audit log of its account (/v1/audit-events: list, verify, export) and nothing else (full includes it)',
  })
  @IsArray({ message: 'scopes must be an array of full, read, ingest, admin, gateway, audit' })
  @ArrayNotEmpty({ message: 'scopes must name at least one scope' })
  @ArrayMaxSize(5, { message: 'scopes has at most 5 entries' })
  @IsIn(SCOPES, { each: true, message: 'scopes entries must be full, read, ingest, admin, gateway or audit' })
  scopes!: Scope[];

  @ApiPropertyOptional({ format: 'date-time', description: 'After this instant the key fails authentication' })
  @IsOptional()
  @IsISO8601({ strict: true, strictSeparator: true }, { message: 'expires_at must be an ISO 8601 instant' })
  expires_at?: string;
}
