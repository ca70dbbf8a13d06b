import { Controller, Get, Param, Query } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiOkResponse, ApiTags, ApiOperation } from '@nestjs/swagger';
import { accountOf, Ctx, RequestContext } from '../../platform/http/request-context';
import { DomainError } from '../../shared/domain-error';
import { GetTrunkAsOf, GetTrunkHistory } from '../read/trunk-history.queries';
import { ListTrunksAsOf } from '../read/trunks-as-of.query';
import {
  GetTrunkQueryDto,
  ListTrunksQueryDto,
  TrunkDetailDto,
  TrunkHistoryDto,
  TrunkHistoryQueryDto,
  TrunkListDto,
} from '../read/trunk.dto';
import { GetTrunk, ListTrunks } from '../read/trunk.queries';

@ApiTags('trunks')
@ApiBearerAuth()
@Controller('v1/trunks')
export class TrunksReadController {
  constructor(private readonly queries: QueryBus) {}

  @Get()
  @ApiOperation({
    operationId: 'listTrunks',
    description:
      "Lists the account's trunks with today's call stats. Pages by limit/offset or, stable under inserts, by cursor (pagination.next_cursor); with as_of, the trunks as they were at that instant.",
    summary: 'List trunks',
  })
  @ApiOkResponse({
    type: TrunkListDto,
    description: 'Newest first by default; with as_of, the trunks of the account as they were at that instant',
  })
  list(@Query() query: ListTrunksQueryDto, @Ctx() ctx: RequestContext): Promise<TrunkListDto> {
    const order = query.sort === 'created_at' ? 'asc' : 'desc';
    if (query.as_of !== undefined) {
      if (query.cursor !== undefined)
        throw new DomainError('invalid_params', 'cursor does not apply with as_of: page a past list with offset', {
          param: 'cursor',
          reason: 'conflicting_params',
        });
      return this.queries.execute(
        new ListTrunksAsOf(accountOf(ctx), new Date(query.as_of), query.limit, query.offset, query.status, order),
      );
    }
    return this.queries.execute(
      new ListTrunks(accountOf(ctx), query.limit, query.offset, query.status, order, query.cursor),
    );
  }

  @Get(':id')
  @ApiOperation({
    operationId: 'getTrunk',
    description: 'Reads one trunk with its settings (never its secrets); with as_of, as it was at that instant.',
    summary: 'Get a trunk',
  })
  @ApiOkResponse({ type: TrunkDetailDto, description: 'With as_of: the trunk as it was at that instant' })
  get(@Param('id') id: string, @Query() query: GetTrunkQueryDto, @Ctx() ctx: RequestContext): Promise<TrunkDetailDto> {
    if (query.as_of !== undefined)
      return this.queries.execute(new GetTrunkAsOf(accountOf(ctx), id, new Date(query.as_of)));
    return this.queries.execute(new GetTrunk(accountOf(ctx), id, ctx.readAhead));
  }

  @Get(':id/events')
  @ApiOperation({
    operationId: 'listTrunkEvents',
    description: "The trunk's history: every change as recorded in its event stream, without secrets.",
    summary: "List a trunk's history",
  })
  @ApiOkResponse({
    type: TrunkHistoryDto,
    description: "The trunk's full history for auditors, oldest first, secrets redacted",
  })
  history(
    @Param('id') id: string,
    @Query() query: TrunkHistoryQueryDto,
    @Ctx() ctx: RequestContext,
  ): Promise<TrunkHistoryDto> {
    return this.queries.execute(new GetTrunkHistory(accountOf(ctx), id, query.limit, query.offset));
  }
}
