import { Controller, Get, Param, Query } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { accountOf, Ctx, RequestContext } from '../../../platform/http/request-context';
import { GetTrunkAsOf, GetTrunkHistory } from '../../trunk-history/trunk-history.queries';
import {
  GetTrunkQueryDto,
  ListTrunksQueryDto,
  TrunkDetailDto,
  TrunkHistoryDto,
  TrunkHistoryQueryDto,
  TrunkListDto,
} from '../trunk.dto';
import { GetTrunk, ListTrunks } from '../trunk.queries';

@ApiTags('trunks')
@ApiBearerAuth()
@Controller('v1/trunks')
export class TrunksReadController {
  constructor(private readonly queries: QueryBus) {}

  @Get()
  @ApiOkResponse({ type: TrunkListDto, description: 'Newest first by default' })
  list(@Query() query: ListTrunksQueryDto, @Ctx() ctx: RequestContext): Promise<TrunkListDto> {
    return this.queries.execute(
      new ListTrunks(
        accountOf(ctx),
        query.limit,
        query.offset,
        query.status,
        query.sort === 'created_at' ? 'asc' : 'desc',
      ),
    );
  }

  @Get(':id')
  @ApiOkResponse({ type: TrunkDetailDto, description: 'With as_of: the trunk as it was at that instant' })
  get(@Param('id') id: string, @Query() query: GetTrunkQueryDto, @Ctx() ctx: RequestContext): Promise<TrunkDetailDto> {
    if (query.as_of !== undefined)
      return this.queries.execute(new GetTrunkAsOf(accountOf(ctx), id, new Date(query.as_of)));
    return this.queries.execute(new GetTrunk(accountOf(ctx), id, ctx.readAhead));
  }

  @Get(':id/events')
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
