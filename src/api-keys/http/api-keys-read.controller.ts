import { Controller, Get, Query } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiOkResponse, ApiTags, ApiOperation } from '@nestjs/swagger';
import { ApiKeyList, ListApiKeys } from '../read/api-keys.queries';
import { ApiKeyListDto, ListApiKeysQueryDto } from './api-key-list.dto';

@ApiTags('admin')
@ApiBearerAuth()
@Controller('v1/api-keys')
export class ApiKeysReadController {
  constructor(private readonly queries: QueryBus) {}

  @Get()
  @ApiOperation({
    operationId: 'listApiKeys',
    description:
      'Lists API keys without the key itself, with revocation, last use and request and error counts; newest first, by offset or by cursor (next_cursor of the previous page: the same cost at any depth, no repeat or skip while keys are issued).',
    summary: "List an account's API keys",
  })
  @ApiOkResponse({ type: ApiKeyListDto, description: 'Newest first, with usage counters' })
  list(@Query() query: ListApiKeysQueryDto): Promise<ApiKeyList> {
    return this.queries.execute(new ListApiKeys(query.account_id ?? null, query.limit, query.offset, query.cursor));
  }
}
