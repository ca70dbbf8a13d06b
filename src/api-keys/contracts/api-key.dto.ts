import { ApiProperty } from '@nestjs/swagger';
import { SCOPES, Scope } from '../../shared/api-key-scopes';

/** An API key as the routes answer it: never the key itself, except once when issued. */
export class ApiKeyDto {
  @ApiProperty({ example: 'key_…' }) id!: string;
  @ApiProperty() name!: string;
  @ApiProperty({ nullable: true, type: String }) account_id!: string | null;
  @ApiProperty({ enum: SCOPES, isArray: true }) scopes!: Scope[];
  @ApiProperty({ enum: ['live', 'test'] }) environment!: 'live' | 'test';
  @ApiProperty({ description: 'Last 4 characters of the key' }) key_hint!: string;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
  @ApiProperty({ format: 'date-time', nullable: true, type: String }) expires_at!: string | null;
}

export class IssuedApiKeyDto extends ApiKeyDto {
  @ApiProperty({ description: 'The key. Shown once, here; only its hash is kept.' }) key!: string;
}
