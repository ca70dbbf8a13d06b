import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  IsIn,
  IsObject,
  IsOptional,
  IsString,
  IsUrl,
  Length,
  Matches,
  MaxLength,
  ValidateNested,
} from 'class-validator';
import { PROVIDERS, Provider } from '../../domain/trunk.types';
import { IsCidrList, ProviderSettingsDto, VadDto } from '../../contracts/trunk-settings.dto';

export const SIP_USERNAME = /^[A-Za-z0-9-]{3,64}$/;
export const NOT_BLANK = /\S/;
const WSS_URL = { protocols: ['wss'], require_protocol: true, require_tld: false, allow_underscores: true };

export class CreateTrunkRequestDto {
  @ApiProperty({ minLength: 1, maxLength: 200, description: 'Unique within the account (case-insensitive, trimmed)' })
  @IsString({ message: 'name must be a string' })
  @Length(1, 200, { message: 'name must be 1-200 characters' })
  @Matches(NOT_BLANK, { message: 'name must not be blank' })
  name!: string;

  @ApiProperty({ enum: PROVIDERS })
  @IsIn(PROVIDERS, { message: 'ai_provider must be openai, elevenlabs or custom' })
  ai_provider!: Provider;

  @ApiProperty({
    pattern: SIP_USERNAME.source,
    description: '3-64 letters, digits and hyphens; unique across all accounts (case-insensitive)',
  })
  @IsString({ message: 'sip_username must be a string' })
  @Matches(SIP_USERNAME, {
    message: 'sip_username must be 3-64 letters, digits or hyphens',
    context: { code: 'invalid_sip_username' },
  })
  sip_username!: string;

  @ApiProperty({ minLength: 8, maxLength: 128, writeOnly: true })
  @IsString({ message: 'sip_password must be a string' })
  @Length(8, 128, { message: 'sip_password must be 8-128 characters' })
  sip_password!: string;

  @ApiPropertyOptional({ writeOnly: true, description: 'Required when ai_provider is openai' })
  @IsOptional()
  @IsString({ message: 'openai_api_key must be a string' })
  @Length(1, 512, { message: 'openai_api_key must be 1-512 characters' })
  openai_api_key?: string;

  @ApiPropertyOptional({ writeOnly: true, description: 'Required when ai_provider is elevenlabs' })
  @IsOptional()
  @IsString({ message: 'elevenlabs_api_key must be a string' })
  @Length(1, 512, { message: 'elevenlabs_api_key must be 1-512 characters' })
  elevenlabs_api_key?: string;

  @ApiPropertyOptional({ description: 'Required when ai_provider is elevenlabs' })
  @IsOptional()
  @IsString({ message: 'elevenlabs_agent_id must be a string' })
  @Length(1, 128, { message: 'elevenlabs_agent_id must be 1-128 characters' })
  elevenlabs_agent_id?: string;

  @ApiPropertyOptional({ format: 'uri', description: 'Required when ai_provider is custom: an absolute wss:// URL' })
  @IsOptional()
  @IsString({ message: 'custom_endpoint must be a string' })
  @MaxLength(2048, { message: 'custom_endpoint must be at most 2048 characters' })
  @IsUrl(WSS_URL, { message: 'custom_endpoint must be an absolute wss:// URL' })
  custom_endpoint?: string;

  @ApiPropertyOptional({ maxLength: 20000, description: 'Sent to the AI agent at the start of each call' })
  @IsOptional()
  @IsString({ message: 'system_prompt must be a string' })
  @MaxLength(20000, { message: 'system_prompt must be at most 20000 characters' })
  system_prompt?: string;

  @ApiPropertyOptional({ type: VadDto })
  @IsOptional()
  @IsObject({ message: 'vad must be an object' })
  @ValidateNested()
  @Type(() => VadDto)
  vad?: VadDto;

  @ApiPropertyOptional({ type: ProviderSettingsDto })
  @IsOptional()
  @IsObject({ message: 'provider_settings must be an object' })
  @ValidateNested()
  @Type(() => ProviderSettingsDto)
  provider_settings?: ProviderSettingsDto;

  @ApiPropertyOptional({
    type: [String],
    description: 'IPv4/IPv6 addresses or CIDR blocks the carrier may connect from',
  })
  @IsOptional()
  @IsCidrList()
  allowed_addresses?: string[];
}

export { WSS_URL };
