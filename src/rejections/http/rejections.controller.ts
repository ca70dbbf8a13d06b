import { Body, Controller, Get, HttpCode, Inject, Param, Post, Query } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiBody, ApiConsumes, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { accountOf, Ctx, gatewayScopeOf, RequestContext } from '../../platform/http/request-context';
import { CLOCK, Clock } from '../../shared/clock';
import { RejectionIngestion, RejectionIngestResult } from '../ingestion/rejection-ingestion.service';
import { CallRejectionListDto, ListRejectionsQueryDto, ListUnownedRejectionsQueryDto } from '../read/rejection.dto';
import { ListTrunkRejections, ListUnownedRejections } from '../read/rejections.queries';
import { REJECTIONS_BODY_SCHEMA, RejectionIngestResultDto } from './rejections-body.schema';

@ApiTags('rejections')
@ApiBearerAuth()
@Controller('v1')
export class RejectionsController {
  constructor(
    private readonly ingestion: RejectionIngestion,
    private readonly queries: QueryBus,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  @Post('ingest/rejections')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'ingestRejections',
    description:
      'For the SIP gateway: records INVITEs it refused (unknown user, bad digest, address not allowed), as NDJSON or JSON.',
    summary: "Report refused INVITEs (the SIP gateway's rejection log)",
  })
  @ApiConsumes('application/x-ndjson', 'application/json')
  @ApiBody({ schema: REJECTIONS_BODY_SCHEMA as never })
  @ApiOkResponse({
    type: RejectionIngestResultDto,
    description:
      'Scope gateway, ingest or full. 200 means every accepted rejection is stored; re-sending one (same id and at) counts it once.',
  })
  ingest(@Body() body: unknown, @Ctx() ctx: RequestContext): Promise<RejectionIngestResult> {
    return this.ingestion.ingest(gatewayScopeOf(ctx), body, this.clock.now());
  }

  @Get('trunks/:id/rejections')
  @ApiOperation({
    operationId: 'listTrunkRejections',
    description: 'Lists the INVITEs the gateway refused for one trunk, newest first.',
    summary: "List a trunk's rejected INVITEs, newest first",
  })
  @ApiOkResponse({
    type: CallRejectionListDto,
    description: 'from/to bound the time (default: the last 7 days); cursor pages',
  })
  list(
    @Param('id') id: string,
    @Query() query: ListRejectionsQueryDto,
    @Ctx() ctx: RequestContext,
  ): Promise<CallRejectionListDto> {
    return this.queries.execute(new ListTrunkRejections(accountOf(ctx), id, query, this.clock.now()));
  }

  @Get('gateway/rejections')
  @ApiOperation({
    operationId: 'listUnownedRejections',
    description:
      'Lists the INVITEs the gateway refused that belong to no account (unknown user names, banned sources), newest first.',
    summary: 'List the rejected INVITEs that belong to no account (unknown user names, banned sources), newest first',
  })
  @ApiOkResponse({
    type: CallRejectionListDto,
    description:
      'Scope admin or gateway (the platform keys; account keys get 403). from/to bound the time (default: the last 7 days); reason and source_address filter; cursor pages',
  })
  listUnowned(@Query() query: ListUnownedRejectionsQueryDto): Promise<CallRejectionListDto> {
    return this.queries.execute(new ListUnownedRejections(query, this.clock.now()));
  }
}
