import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, Matches } from 'class-validator';
import { ProviderSettingsDto } from '../contracts/trunk-settings.dto';

export class GatewayTrunkDto {
  @ApiProperty() trunk_id!: string;
  @ApiProperty() account_id!: string;
  @ApiProperty() sip_username!: string;
  @ApiProperty({
    enum: ['active', 'inactive', 'error', 'deleted'],
    description:
      'Route calls only when active. A trunk whose health is `error` is reported active here: it is still routed, so an answered call can bring it back (docs/analytics.md, "Trunk health")',
  })
  status!: string;
  @ApiProperty({ enum: ['openai', 'elevenlabs', 'custom'] }) ai_provider!: string;
  @ApiProperty({ nullable: true, type: ProviderSettingsDto }) provider_settings!: ProviderSettingsDto | null;
  @ApiProperty({ nullable: true, type: String }) system_prompt!: string | null;
  @ApiProperty({ nullable: true, type: [String], description: 'As set on the trunk (addresses or CIDR blocks)' })
  allowed_addresses!: string[] | null;
  @ApiProperty({
    nullable: true,
    type: [String],
    example: ['198.51.100.7/32', '203.0.113.0/24'],
    description: 'The allow list as CIDR blocks, for one `is_in_subnet` check; null: any source address; []: none',
  })
  allowed_cidrs!: string[] | null;
  @ApiProperty({ nullable: true, type: String }) elevenlabs_agent_id!: string | null;
  @ApiProperty({ nullable: true, type: String }) custom_endpoint!: string | null;
  @ApiProperty({
    nullable: true,
    type: String,
    example: 'sip:conn_123@bridge.example.com:5070;transport=tcp',
    description:
      "Where to relay the call: the SIP_ROUTE_<PROVIDER> template with this trunk's values; null when no route is configured for the provider (the gateway answers 503)",
  })
  sip_target!: string | null;
  @ApiProperty({
    nullable: true,
    type: String,
    description: 'MD5(sip_username:SIP_DOMAIN:password) for SIP digest authentication; null for deleted trunks',
  })
  ha1!: string | null;
}

export class GatewayChangesQueryDto {
  @ApiPropertyOptional({ description: 'The cursor of the previous answer; absent on a first poll' })
  @IsOptional()
  @Matches(/^\d{1,15}$/, { message: 'after must be a cursor this API returned' })
  after?: string;
}

export class GatewayChangesDto {
  @ApiProperty({ type: [String], description: 'Lower-case user names to evict' }) changes!: string[];
  @ApiProperty({ description: 'Pass as after on the next poll' }) cursor!: string;
  @ApiProperty({ description: 'Drop every cached lookup (first poll, or too many changes to list)' })
  flush!: boolean;
}
