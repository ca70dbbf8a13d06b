import { Controller, Get, Query } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { accountOf, Ctx, RequestContext } from '../../platform/http/request-context';
import { CallChangesDto, CallChangesQueryDto } from '../read/call-changes.dto';
import { ListCallChanges } from '../read/call-changes.queries';

@ApiTags('calls')
@ApiBearerAuth()
@Controller('v1/calls/changes')
export class CallChangesController {
  constructor(private readonly queries: QueryBus) {}

  @Get()
  @ApiOperation({
    operationId: 'listCallChanges',
    summary: 'Sync feed: call records in the order they were stored',
    description:
      "The way to sync calls to another system. Every stored version of the account's records, in storage order: a record arriving late (old start_time) comes after the ones stored before it, and a re-sent record appears again with its new version. Keep next_cursor and pass it back (now or later): no record is skipped or repeated. A record is in the feed once its ingestion answered 200. See docs/analytics.md.",
  })
  @ApiOkResponse({ type: CallChangesDto })
  list(@Query() query: CallChangesQueryDto, @Ctx() ctx: RequestContext): Promise<CallChangesDto> {
    return this.queries.execute(new ListCallChanges(accountOf(ctx), query));
  }
}
