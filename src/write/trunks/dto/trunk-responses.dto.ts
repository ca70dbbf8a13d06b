import { ApiProperty } from '@nestjs/swagger';
import { ProviderSettingsDto, VadDto } from '../../../contracts/trunks/trunk-settings.dto';
import { PROVIDERS, Provider, TRUNK_STATUSES, TrunkStatus } from '../../../domain/trunks/trunk.types';

export class TrunkCreatedDto {
  @ApiProperty({ example: 'conn_…' }) id!: string;
  @ApiProperty() name!: string;
  @ApiProperty({ enum: TRUNK_STATUSES }) status!: TrunkStatus;
  @ApiProperty({ enum: PROVIDERS }) ai_provider!: Provider;
  @ApiProperty() sip_username!: string;
  @ApiProperty({ description: '<sip_username>@<SIP_DOMAIN>: configure this at the carrier' }) sip_endpoint!: string;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
}

export class TrunkUpdatedDto {
  @ApiProperty() id!: string;
  @ApiProperty() name!: string;
  @ApiProperty({ enum: TRUNK_STATUSES }) status!: TrunkStatus;
  @ApiProperty({ format: 'date-time' }) updated_at!: string;
}

export class PasswordRotatedDto {
  @ApiProperty() id!: string;
  @ApiProperty({ description: 'Unchanged' }) sip_username!: string;
  @ApiProperty({ description: 'The new password, generated server-side (32 characters); returned only here' })
  sip_password!: string;
  @ApiProperty({ format: 'date-time' }) rotated_at!: string;
}

/**
 * What a media gateway needs to reach a trunk's agent, secrets in clear: only for a `gateway` key,
 * and every answer is an `AgentCredentialsRead` event in the account's audit log.
 */
export class GatewayAgentDto {
  @ApiProperty() trunk_id!: string;
  @ApiProperty() account_id!: string;
  @ApiProperty() sip_username!: string;
  @ApiProperty({ enum: ['active'], description: 'Only active trunks are answered (inactive: 409)' }) status!: string;
  @ApiProperty({ enum: PROVIDERS }) ai_provider!: Provider;
  @ApiProperty({ nullable: true, type: String, description: 'wss:// URL of a custom agent' })
  custom_endpoint!: string | null;
  @ApiProperty({ nullable: true, type: String, description: 'In clear; openai trunks only' })
  openai_api_key!: string | null;
  @ApiProperty({ nullable: true, type: String, description: 'In clear; elevenlabs trunks only' })
  elevenlabs_api_key!: string | null;
  @ApiProperty({ nullable: true, type: String }) elevenlabs_agent_id!: string | null;
  @ApiProperty({ nullable: true, type: String }) system_prompt!: string | null;
  @ApiProperty({
    nullable: true,
    type: VadDto,
    description: 'null (or a key left out): the gateway applies its defaults',
  })
  vad!: VadDto | null;
  @ApiProperty({ nullable: true, type: ProviderSettingsDto }) provider_settings!: ProviderSettingsDto | null;
  @ApiProperty({ format: 'date-time' }) read_at!: string;
  @ApiProperty({ format: 'uuid', description: 'The id of the AgentCredentialsRead event recording this read' })
  audit_event_id!: string;
}
