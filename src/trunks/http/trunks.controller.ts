import { Body, Controller, Delete, Get, Header, HttpCode, Param, Patch, Post } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import {
  ApiBearerAuth,
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import { accountOf, Ctx, eventMetadata, RequestContext } from '../../platform/http/request-context';
import { CreateTrunk } from '../write/create-trunk.handler';
import { DeleteTrunk } from '../write/delete-trunk.handler';
import { CreateTrunkRequestDto } from '../write/dto/create-trunk.request.dto';
import {
  GatewayAgentDto,
  PasswordRotatedDto,
  TrunkCreatedDto,
  TrunkUpdatedDto,
} from '../write/dto/trunk-responses.dto';
import { ReadAgentCredentials } from '../write/read-agent-credentials.handler';
import { UpdateTrunkRequestDto } from '../write/dto/update-trunk.request.dto';
import { RotateSipPassword } from '../write/rotate-sip-password.handler';
import { UpdateTrunk } from '../write/update-trunk.handler';

@ApiTags('trunks')
@ApiBearerAuth()
@Controller('v1/trunks')
export class TrunksWriteController {
  constructor(private readonly commands: CommandBus) {}

  @Post()
  @ApiOperation({
    operationId: 'createTrunk',
    description:
      'Creates a SIP trunk wired to an AI provider (openai, elevenlabs or custom wss:// endpoint). The SIP password and provider keys are taken here and never returned; a provider key is validated with the provider first.',
    summary: 'Create a trunk',
  })
  @HttpCode(201)
  @ApiCreatedResponse({ type: TrunkCreatedDto, description: 'Secrets are never returned' })
  create(@Body() body: CreateTrunkRequestDto, @Ctx() ctx: RequestContext): Promise<TrunkCreatedDto> {
    return this.commands.execute(new CreateTrunk(accountOf(ctx), body, eventMetadata(ctx)));
  }

  @Patch(':id')
  @ApiOperation({
    operationId: 'updateTrunk',
    description:
      "Changes a trunk's name, status, prompt, VAD, provider settings, allowed addresses or provider wiring. A field set to null is cleared; a field left out is kept.",
    summary: 'Update a trunk',
  })
  @ApiOkResponse({
    type: TrunkUpdatedDto,
    description: 'Only the included fields change; active calls are not interrupted',
  })
  update(
    @Param('id') id: string,
    @Body() body: UpdateTrunkRequestDto,
    @Ctx() ctx: RequestContext,
  ): Promise<TrunkUpdatedDto> {
    return this.commands.execute(new UpdateTrunk(id, accountOf(ctx), body, eventMetadata(ctx)));
  }

  @Post(':id/rotate-password')
  @ApiOperation({
    operationId: 'rotateTrunkSipPassword',
    description:
      'Generates a new SIP password for the trunk and returns it once; the old one stops working. Takes no body.',
    summary: "Rotate a trunk's SIP password",
  })
  @HttpCode(200)
  @ApiOkResponse({
    type: PasswordRotatedDto,
    description: 'The old password is invalid at once; the new one is returned only here',
  })
  rotate(@Param('id') id: string, @Ctx() ctx: RequestContext): Promise<PasswordRotatedDto> {
    return this.commands.execute(new RotateSipPassword(id, accountOf(ctx), eventMetadata(ctx)));
  }

  @Post(':id/rotate-sip-password')
  @ApiOperation({
    operationId: 'rotateTrunkSipPasswordAlias',
    description: 'The same as POST /trunks/{id}/rotate-password, kept for older clients. Takes no body.',
    summary: "Rotate a trunk's SIP password (deprecated path)",
    deprecated: true,
  })
  @HttpCode(200)
  @ApiOkResponse({ type: PasswordRotatedDto })
  rotateAlias(@Param('id') id: string, @Ctx() ctx: RequestContext): Promise<PasswordRotatedDto> {
    return this.rotate(id, ctx);
  }

  @Delete(':id')
  @ApiOperation({
    operationId: 'deleteTrunk',
    description: 'Deletes a trunk: the gateway stops routing to it at once; its calls stay listed.',
    summary: 'Delete a trunk',
  })
  @HttpCode(204)
  @ApiNoContentResponse({
    description:
      'The trunk disappears from reads; its name and sip_username are freed; its secrets become unrecoverable',
  })
  async remove(@Param('id') id: string, @Ctx() ctx: RequestContext): Promise<void> {
    await this.commands.execute(new DeleteTrunk(id, accountOf(ctx), eventMetadata(ctx)));
  }
}

/**
 * The media gateway's lookup of a trunk's agent, secrets in clear. A GET that appends an event:
 * the read itself is what the audit log records (docs/sip-gateway.md, docs/audit.md).
 */
@ApiTags('gateway')
@ApiBearerAuth()
@Controller('v1/gateway')
export class GatewayAgentController {
  constructor(private readonly commands: CommandBus) {}

  @Get('trunks/:sip_username/agent')
  @Header('Cache-Control', 'no-store')
  @ApiOperation({
    operationId: 'getGatewayTrunkAgent',
    description:
      "For the SIP gateway: how to reach the trunk's AI agent (provider, endpoint and what it needs to connect).",
    summary: "What a media gateway needs to reach a trunk's agent, provider keys in clear (scope gateway only)",
  })
  @ApiOkResponse({
    type: GatewayAgentDto,
    description:
      'Only a gateway key (no account) may call it; every other key gets 403. Unknown, malformed or deleted names are 404, an inactive trunk 409. ' +
      "Every answer is recorded as an AgentCredentialsRead event in the trunk's account's audit log (resource_type agent_access).",
  })
  agent(@Param('sip_username') sipUsername: string, @Ctx() ctx: RequestContext): Promise<GatewayAgentDto> {
    return this.commands.execute(new ReadAgentCredentials(sipUsername, eventMetadata(ctx)));
  }
}
