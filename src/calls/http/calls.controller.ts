import { Controller, Get, Param, Query } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiOkResponse, ApiTags, ApiOperation } from '@nestjs/swagger';
import { accountOf, Ctx, RequestContext } from '../../platform/http/request-context';
import { CallDetailDto, CallListDto, ListCallsQueryDto } from '../read/call.dto';
import { GetCall, ListCalls } from '../read/calls.queries';

@ApiTags('calls')
@ApiBearerAuth()
@Controller('v1/calls')
export class CallsController {
  constructor(private readonly queries: QueryBus) {}

  @Get()
  @ApiOperation({
    operationId: 'listCalls',
    description:
      'Lists calls newest first, filtered by trunk, status, direction, numbers and time range. Pages by limit/offset or by cursor at constant cost at any depth.',
    summary: 'List calls',
  })
  @ApiOkResponse({
    type: CallListDto,
    description:
      'Newest first. Offset pagination with the exact total, or cursor pagination (next_cursor) at constant cost.',
  })
  list(@Query() query: ListCallsQueryDto, @Ctx() ctx: RequestContext): Promise<CallListDto> {
    return this.queries.execute(new ListCalls(accountOf(ctx), query));
  }

  @Get(':id')
  @ApiOperation({
    operationId: 'getCall',
    description:
      'Reads one call: the list form plus metrics, conversation turns, SIP signalling facts and the SIP trace.',
    summary: 'Get a call',
  })
  @ApiOkResponse({ type: CallDetailDto })
  get(@Param('id') id: string, @Ctx() ctx: RequestContext): Promise<CallDetailDto> {
    return this.queries.execute(new GetCall(accountOf(ctx), id));
  }
}
