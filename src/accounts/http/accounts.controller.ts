import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiCreatedResponse, ApiTags, ApiOperation } from '@nestjs/swagger';
import { Ctx, eventMetadata, RequestContext } from '../../platform/http/request-context';
import { CreateAccount } from '../write/create-account.handler';
import { CreateAccountRequestDto } from '../write/dto/create-account.request.dto';
import { AccountDto } from '../contracts/account.dto';

@ApiTags('admin')
@ApiBearerAuth()
@Controller('v1/accounts')
export class AccountsWriteController {
  constructor(private readonly commands: CommandBus) {}

  @Post()
  @ApiOperation({
    operationId: 'createAccount',
    description: 'Creates a customer account (admin keys only). Keys for the account are issued with POST /api-keys.',
    summary: 'Create an account',
  })
  @HttpCode(201)
  @ApiCreatedResponse({ type: AccountDto, description: 'Needs a key with the admin scope' })
  create(@Body() body: CreateAccountRequestDto, @Ctx() ctx: RequestContext): Promise<AccountDto> {
    return this.commands.execute(new CreateAccount(body.name, eventMetadata(ctx)));
  }
}
