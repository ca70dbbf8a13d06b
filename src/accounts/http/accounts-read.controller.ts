import { Controller, Get, Param, Query } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiOkResponse, ApiProperty, ApiTags, ApiOperation } from '@nestjs/swagger';
import { PaginationDto, PaginationQueryDto } from '../../platform/http/pagination';
import { Ctx, RequestContext } from '../../platform/http/request-context';
import { AccountDto } from '../contracts/account.dto';
import { AccountList, GetAccount, ListAccounts } from '../read/accounts.queries';

class AccountListDto {
  @ApiProperty({ type: [AccountDto] }) accounts!: AccountDto[];
  @ApiProperty({ type: PaginationDto }) pagination!: PaginationDto;
}

@ApiTags('admin')
@ApiBearerAuth()
@Controller('v1/accounts')
export class AccountsReadController {
  constructor(private readonly queries: QueryBus) {}

  @Get()
  @ApiOperation({
    operationId: 'listAccounts',
    description: 'Lists every account with limit/offset paging (admin keys only).',
    summary: 'List accounts',
  })
  @ApiOkResponse({ type: AccountListDto, description: 'Newest first' })
  list(@Query() query: PaginationQueryDto): Promise<AccountList> {
    return this.queries.execute(new ListAccounts(query.limit, query.offset));
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
