import { Body, Controller, Delete, HttpCode, Param, Patch, Post } from '@nestjs/common';
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
import { PasswordRotatedDto, TrunkCreatedDto, TrunkUpdatedDto } from '../write/dto/trunk-responses.dto';
import { UpdateTrunkRequestDto } from '../write/dto/update-trunk.request.dto';
import { RotateSipPassword } from '../write/rotate-sip-password.handler';
import { UpdateTrunk } from '../write/update-trunk.handler';

@ApiTags('trunks')
@ApiBearerAuth()
@Controller('v1/trunks')
export class TrunksWriteController {
  constructor(private readonly commands: CommandBus) {}

  @Post()
  @ApiOperation({ operationId: 'createTrunk', summary: 'Create a trunk' })
  @HttpCode(201)
  @ApiCreatedResponse({ type: TrunkCreatedDto, description: 'Secrets are never returned' })
  create(@Body() body: CreateTrunkRequestDto, @Ctx() ctx: RequestContext): Promise<TrunkCreatedDto> {
    return this.commands.execute(new CreateTrunk(accountOf(ctx), body, eventMetadata(ctx)));
  }

  @Patch(':id')
  @ApiOperation({ operationId: 'updateTrunk', summary: 'Update a trunk' })
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
  @ApiOperation({ operationId: 'rotateTrunkSipPassword', summary: "Rotate a trunk's SIP password" })
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
    summary: "Rotate a trunk's SIP password (deprecated path)",
    deprecated: true,
  })
  @HttpCode(200)
  @ApiOkResponse({ type: PasswordRotatedDto })
  rotateAlias(@Param('id') id: string, @Ctx() ctx: RequestContext): Promise<PasswordRotatedDto> {
    return this.rotate(id, ctx);
  }

  @Delete(':id')
  @ApiOperation({ operationId: 'deleteTrunk', summary: 'Delete a trunk' })
  @HttpCode(204)
  @ApiNoContentResponse({
    description:
      'The trunk disappears from reads; its name and sip_username are freed; its secrets become unrecoverable',
  })
  async remove(@Param('id') id: string, @Ctx() ctx: RequestContext): Promise<void> {
    await this.commands.execute(new DeleteTrunk(id, accountOf(ctx), eventMetadata(ctx)));
  }
}
