import { Controller, Get, Param } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiOkResponse, ApiProperty, ApiTags } from '@nestjs/swagger';
import { accountOf, Ctx, RequestContext } from '../../../platform/http/request-context';
import { GatewayRecord } from '../../../projections/trunks/trunk-view';
import { LookupGatewayTrunk } from '../gateway.queries';

class GatewayTrunkDto {
  @ApiProperty() trunk_id!: string;
  @ApiProperty() account_id!: string;
  @ApiProperty() sip_username!: string;
  @ApiProperty({ enum: ['active', 'inactive', 'error', 'deleted'], description: 'Route calls only when active' })
  status!: string;
  @ApiProperty() ai_provider!: string;
  @ApiProperty({ nullable: true, type: Object }) provider_settings!: object | null;
  @ApiProperty({ nullable: true, type: String }) system_prompt!: string | null;
  @ApiProperty({ nullable: true, type: [String] }) allowed_addresses!: string[] | null;
  @ApiProperty({ nullable: true, type: String }) elevenlabs_agent_id!: string | null;
  @ApiProperty({ nullable: true, type: String }) custom_endpoint!: string | null;
  @ApiProperty({
    nullable: true,
    type: String,
    description: 'MD5(sip_username:SIP_DOMAIN:password) for SIP digest authentication; null for deleted trunks',
  })
  ha1!: string | null;
}

@ApiTags('gateway')
@ApiBearerAuth()
@Controller('v1/gateway/trunks')
export class GatewayController {
  constructor(private readonly queries: QueryBus) {}

  @Get(':sip_username')
  @ApiOkResponse({
    type: GatewayTrunkDto,
    description: 'Needs a key with the ingest scope; reflects a password rotation at once',
  })
  lookup(@Param('sip_username') sipUsername: string, @Ctx() ctx: RequestContext): Promise<GatewayRecord> {
    return this.queries.execute(new LookupGatewayTrunk(accountOf(ctx), sipUsername, ctx.readAhead));
  }
}
