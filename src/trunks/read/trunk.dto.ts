import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsISO8601, IsOptional } from 'class-validator';
import {
  CursorPaginationDto,
  CursorPaginationQueryDto,
  PaginationDto,
  PaginationQueryDto,
} from '../../platform/http/pagination';
import { PROVIDERS, Provider, ProviderSettings, TRUNK_STATUSES, TrunkStatus, Vad } from '../domain/trunk.types';
import { ProviderSettingsDto, VadDto } from '../contracts/trunk-settings.dto';

export class ListTrunksQueryDto extends CursorPaginationQueryDto {
  @ApiPropertyOptional({ enum: TRUNK_STATUSES })
  @IsOptional()
  @IsIn(TRUNK_STATUSES, { message: 'status must be active, inactive or error' })
  status?: TrunkStatus;

  @ApiPropertyOptional({
    enum: ['created_at', '-created_at'],
    default: '-created_at',
    description: 'created_at: oldest first; -created_at: newest first',
  })
  @IsOptional()
  @IsIn(['created_at', '-created_at'], { message: 'sort must be created_at or -created_at' })
  sort: 'created_at' | '-created_at' = '-created_at';

  @ApiPropertyOptional({
    format: 'date-time',
    description: "The account's trunks as they were at this instant (from the audit log); stats of that UTC day",
  })
  @IsOptional()
  @IsISO8601({ strict: true }, { message: 'as_of must be an ISO 8601 instant' })
  as_of?: string;
}

export class GetTrunkQueryDto {
  @ApiPropertyOptional({ format: 'date-time', description: 'The trunk as it was at this instant (from its history)' })
  @IsOptional()
  @IsISO8601({ strict: true }, { message: 'as_of must be an ISO 8601 instant' })
  as_of?: string;
}

export class TrunkHistoryQueryDto extends PaginationQueryDto {
  override limit: number = 100;
}

export class TrunkStatsDto {
  @ApiProperty({ type: 'integer' }) calls_today!: number;
  @ApiProperty({ description: '0-100' }) success_rate!: number;
  @ApiProperty({ type: 'integer' }) avg_latency_ms!: number;
}

export class TrunkListItemDto {
  @ApiProperty() id!: string;
  @ApiProperty() name!: string;
  @ApiProperty({ enum: TRUNK_STATUSES }) status!: TrunkStatus;
  @ApiProperty({ enum: PROVIDERS }) ai_provider!: Provider;
  @ApiProperty() sip_username!: string;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
  @ApiProperty({ format: 'date-time' }) updated_at!: string;
  @ApiProperty({ type: TrunkStatsDto }) stats!: TrunkStatsDto;
}

export class TrunkListDto {
  @ApiProperty({ type: [TrunkListItemDto] }) trunks!: TrunkListItemDto[];
  @ApiProperty({ type: CursorPaginationDto }) pagination!: CursorPaginationDto;
}

export class TrunkDetailDto {
  @ApiProperty() id!: string;
  @ApiProperty() name!: string;
  @ApiProperty({ enum: TRUNK_STATUSES }) status!: TrunkStatus;
  @ApiProperty({ enum: PROVIDERS }) ai_provider!: Provider;
  @ApiProperty() sip_username!: string;
  @ApiProperty() sip_endpoint!: string;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
  @ApiProperty({ format: 'date-time' }) updated_at!: string;
  @ApiProperty({ nullable: true, type: String }) system_prompt!: string | null;
  @ApiProperty({ nullable: true, type: VadDto }) vad!: Vad | null;
  @ApiProperty({ nullable: true, type: ProviderSettingsDto }) provider_settings!: ProviderSettings | null;
  @ApiProperty({ nullable: true, type: [String] }) allowed_addresses!: string[] | null;
  @ApiProperty({ nullable: true, type: String }) elevenlabs_agent_id!: string | null;
  @ApiProperty({ nullable: true, type: String }) custom_endpoint!: string | null;
}

export class TrunkHistoryEventDto {
  @ApiProperty({ type: 'integer', description: '0-based position in the trunk history' }) revision!: number;
  @ApiProperty({ example: 'TrunkCreated' }) type!: string;
  @ApiProperty({ format: 'date-time' }) recorded_at!: string;
  @ApiProperty({
    type: String,
    nullable: true,
    description: 'Who acted: an API key id (key_…), or a system actor (system:trunk-health)',
  })
  actor!: string | null;
  @ApiProperty({
    type: String,
    nullable: true,
    description:
      "The acting API key's name as it is now (from the API keys read model; a revoked key keeps its name); null for a system actor, and for a key that is not one of this account's",
  })
  actor_name!: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'The X-Request-Id of the request' }) correlation_id!:
    string | null;
  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description: 'Event data (its shape depends on type); secrets shown as "[redacted]"',
  })
  data!: object;
}

export class TrunkHistoryDto {
  @ApiProperty({ type: [TrunkHistoryEventDto] }) events!: TrunkHistoryEventDto[];
  @ApiProperty({ type: PaginationDto }) pagination!: PaginationDto;
}
