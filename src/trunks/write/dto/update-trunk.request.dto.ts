import { ApiPropertyOptional } from '@nestjs/swagger';
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
  ValidateIf,
  ValidateNested,
} from 'class-validator';
import { NOT_BLANK, WSS_URL } from './create-trunk.request.dto';
import { IsCidrList, ProviderSettingsDto, VadDto } from '../../contracts/trunk-settings.dto';

/** Every field optional; only the included ones change. `null` clears a setting. */
export class UpdateTrunkRequestDto {
  @ApiPropertyOptional({ minLength: 1, maxLength: 200 })
  @ValidateIf((o: UpdateTrunkRequestDto) => o.name !== undefined)
  @IsString({ message: 'name must be a string' })
  @Length(1, 200, { message: 'name must be 1-200 characters' })
  @Matches(NOT_BLANK, { message: 'name must not be blank' })
  name?: string;

  @ApiPropertyOptional({
    enum: ['active', 'inactive'],
    description: 'Enable or disable the trunk (active calls are not interrupted)',
  })
  @ValidateIf((o: UpdateTrunkRequestDto) => o.status !== undefined)
  @IsIn(['active', 'inactive'], { message: 'status must be active or inactive' })
  status?: 'active' | 'inactive';

  @ApiPropertyOptional({ writeOnly: true, description: 'openai trunks' })
  @ValidateIf((o: UpdateTrunkRequestDto) => o.openai_api_key !== undefined)
  @IsString({ message: 'openai_api_key must be a string' })
  @Length(1, 512, { message: 'openai_api_key must be 1-512 characters' })
  openai_api_key?: string;

  @ApiPropertyOptional({ writeOnly: true, description: 'elevenlabs trunks' })
  @ValidateIf((o: UpdateTrunkRequestDto) => o.elevenlabs_api_key !== undefined)
  @IsString({ message: 'elevenlabs_api_key must be a string' })
  @Length(1, 512, { message: 'elevenlabs_api_key must be 1-512 characters' })
  elevenlabs_api_key?: string;

  @ApiPropertyOptional({ description: 'elevenlabs trunks' })
  @ValidateIf((o: UpdateTrunkRequestDto) => o.elevenlabs_agent_id !== undefined)
  @IsString({ message: 'elevenlabs_agent_id must be a string' })
  @Length(1, 128, { message: 'elevenlabs_agent_id must be 1-128 characters' })
  elevenlabs_agent_id?: string;

  @ApiPropertyOptional({ format: 'uri', description: 'custom trunks: an absolute wss:// URL' })
  @ValidateIf((o: UpdateTrunkRequestDto) => o.custom_endpoint !== undefined)
  @IsString({ message: 'custom_endpoint must be a string' })
  @MaxLength(2048, { message: 'custom_endpoint must be at most 2048 characters' })
  @IsUrl(WSS_URL, { message: 'custom_endpoint must be an absolute wss:// URL' })
  custom_endpoint?: string;

  @ApiPropertyOptional({ type: String, maxLength: 20000, nullable: true })
  @IsOptional()
  @IsString({ message: 'system_prompt must be a string or null' })
  @MaxLength(20000, { message: 'system_prompt must be at most 20000 characters' })
  system_prompt?: string | null;

  @ApiPropertyOptional({ type: VadDto, nullable: true })
  @IsOptional()
  @IsObject({ message: 'vad must be an object or null' })
  @ValidateNested()
  @Type(() => VadDto)
  vad?: VadDto | null;

  @ApiPropertyOptional({ type: ProviderSettingsDto, nullable: true })
  @IsOptional()
  @IsObject({ message: 'provider_settings must be an object or null' })
  @ValidateNested()
  @Type(() => ProviderSettingsDto)
  provider_settings?: ProviderSettingsDto | null;

  @ApiPropertyOptional({ type: [String], nullable: true })
  @IsOptional()
  @IsCidrList()
  allowed_addresses?: string[] | null;
}
