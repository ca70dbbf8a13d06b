import { Controller, Get, Param, Query } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiOkResponse, ApiProperty, ApiTags, ApiOperation } from '@nestjs/swagger';
import { CursorPaginationDto, CursorPaginationQueryDto } from '../../platform/http/pagination';
import { Ctx, RequestContext } from '../../platform/http/request-context';
import { AccountDto } from '../contracts/account.dto';
import { AccountList, GetAccount, ListAccounts } from '../read/accounts.queries';

class AccountListDto {
  @ApiProperty({ type: [AccountDto] }) accounts!: AccountDto[];
  @ApiProperty({ type: CursorPaginationDto }) pagination!: CursorPaginationDto;
}

@ApiTags('admin')
@ApiBearerAuth()
@Controller('v1/accounts')
export class AccountsReadController {
  constructor(private readonly queries: QueryBus) {}

  @Get()
  @ApiOperation({
    operationId: 'listAccounts',
    description:
      'Lists every account, newest first (admin keys only): by offset, or by cursor (next_cursor of the previous page), which costs the same at any depth and neither repeats nor skips an account created during the walk.',
    summary: 'List accounts',
  })
  @ApiOkResponse({ type: AccountListDto, description: 'Newest first' })
  list(@Query() query: CursorPaginationQueryDto): Promise<AccountList> {
    return this.queries.execute(new ListAccounts(query.limit, query.offset, query.cursor));
  }

  @Get(':id')
  @ApiOperation({
    operationId: 'getAccount',
    description: 'Reads one account by id (admin keys only).',
    summary: 'Get an account',
  })
  @ApiOkResponse({ type: AccountDto })
  get(@Param('id') id: string, @Ctx() ctx: RequestContext): Promise<AccountDto> {
    return this.queries.execute(new GetAccount(id, ctx.readAhead));
  }
}
