import { Body, Controller, Delete, HttpCode, Param, Post } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import {
  ApiBearerAuth,
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiNotFoundResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import { Ctx, eventMetadata, RequestContext } from '../../platform/http/request-context';
import { IssueApiKey, RevokeApiKey } from '../write/api-key.handlers';
import { IssueApiKeyRequestDto } from '../write/dto/issue-api-key.request.dto';
import { IssuedApiKeyDto } from '../contracts/api-key.dto';

@ApiTags('admin')
@ApiBearerAuth()
@Controller('v1/api-keys')
export class ApiKeysWriteController {
  constructor(private readonly commands: CommandBus) {}

  @Post()
  @ApiOperation({
    operationId: 'createApiKey',
    description:
      'Issues an API key for an account (or an admin/gateway key with no account). The key is shown once, in this response only; afterwards only its prefix is listed.',
    summary: 'Issue an API key',
  })
  @HttpCode(201)
  @ApiCreatedResponse({ type: IssuedApiKeyDto, description: 'The key is in this response only' })
  @ApiNotFoundResponse({ description: 'not_found: no account has this account_id' })
  issue(@Body() body: IssueApiKeyRequestDto, @Ctx() ctx: RequestContext): Promise<IssuedApiKeyDto> {
    const input = {
      accountId: body.account_id ?? null,
      name: body.name,
      scopes: body.scopes,
      expiresAt: body.expires_at ? new Date(body.expires_at) : null,
    };
    return this.commands.execute(new IssueApiKey(input, eventMetadata(ctx)));
  }

  @Delete(':id')
  @ApiOperation({
    operationId: 'revokeApiKey',
    description: 'Revokes an API key: requests made with it answer 401 from then on.',
    summary: 'Revoke an API key',
  })
  @HttpCode(204)
  @ApiNoContentResponse({ description: 'Revoked; effective at once on every instance' })
  async revoke(@Param('id') id: string, @Ctx() ctx: RequestContext): Promise<void> {
    await this.commands.execute(new RevokeApiKey(id, eventMetadata(ctx)));
  }
}
