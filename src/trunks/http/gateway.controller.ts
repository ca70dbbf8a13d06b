import { Controller, Get, Inject, Param, Query } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Ctx, gatewayScopeOf, RequestContext } from '../../platform/http/request-context';
import { CLOCK, Clock } from '../../shared/clock';
import { GatewayChanges, ListGatewayChanges } from '../read/gateway-changes.query';
import { GatewayTrunk, LookupGatewayTrunk } from '../read/gateway.queries';
import { GatewayChangesDto, GatewayChangesQueryDto, GatewayTrunkDto } from './gateway.dto';

@ApiTags('gateway')
@ApiBearerAuth()
@Controller('v1/gateway')
export class GatewayController {
  constructor(
    private readonly queries: QueryBus,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  @Get('trunks/:sip_username')
  @ApiOperation({
    operationId: 'getGatewayTrunk',
    description:
      'For the SIP gateway: the trunk behind a SIP user name, with the digest (HA1) it authenticates INVITEs by, and whether it is active.',
    summary: "Look up a trunk by SIP user name (the gateway's per-call lookup)",
  })
  @ApiOkResponse({
    type: GatewayTrunkDto,
    description:
      "Scope gateway (any account), ingest or full (the key's account). Reflects a rotation, deactivation or deletion at once; unknown or malformed names are 404.",
  })
  lookup(@Param('sip_username') sipUsername: string, @Ctx() ctx: RequestContext): Promise<GatewayTrunk> {
    return this.queries.execute(new LookupGatewayTrunk(gatewayScopeOf(ctx), sipUsername, ctx.readAhead));
  }

  @Get('changes')
  @ApiOperation({
    operationId: 'listGatewayChanges',
    description:
      "For the SIP gateway's cache: the user names whose lookup changed, newest change first, so a gateway evicts only those.",
    summary: 'User names whose lookup changed: what a gateway evicts from its cache',
  })
  @ApiOkResponse({
    type: GatewayChangesDto,
    description:
      'Poll with the previous cursor as `after` (every 500 ms in the reference gateway). `flush: true` means drop every cached lookup.',
  })
  changes(@Query() query: GatewayChangesQueryDto, @Ctx() ctx: RequestContext): Promise<GatewayChanges> {
    const after = query.after === undefined ? null : Number(query.after);
    return this.queries.execute(new ListGatewayChanges(gatewayScopeOf(ctx), after, this.clock.now()));
  }
}
