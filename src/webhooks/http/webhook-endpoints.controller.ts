import { Body, Controller, Delete, HttpCode, Param, Patch, Post } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import {
  ApiAcceptedResponse,
  ApiBearerAuth,
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiTags,
} from '@nestjs/swagger';
import { accountOf, Ctx, eventMetadata, RequestContext } from '../../platform/http/request-context';
import {
  WebhookDeliveryDto,
  WebhookEndpointCreatedDto,
  WebhookEndpointDto,
  WebhookSecretRotatedDto,
} from '../read/webhook.dto';
import { CreateWebhookEndpointRequestDto, UpdateWebhookEndpointRequestDto } from '../write/dto/webhook-endpoint.request.dto';
import {
  CreateWebhookEndpoint,
  DeleteWebhookEndpoint,
  PingWebhookEndpoint,
  RotateWebhookSecret,
  UpdateWebhookEndpoint,
} from '../write/webhook-endpoint.handlers';

@ApiTags('webhooks')
@ApiBearerAuth()
@Controller('v1/webhook-endpoints')
export class WebhookEndpointsWriteController {
  constructor(private readonly commands: CommandBus) {}

  @Post()
  @HttpCode(201)
  @ApiCreatedResponse({ type: WebhookEndpointCreatedDto, description: 'The signing secret is returned only here' })
  create(
    @Body() body: CreateWebhookEndpointRequestDto,
    @Ctx() ctx: RequestContext,
  ): Promise<WebhookEndpointCreatedDto> {
    return this.commands.execute(new CreateWebhookEndpoint(accountOf(ctx), body, eventMetadata(ctx)));
  }

  @Patch(':id')
  @ApiOkResponse({ type: WebhookEndpointDto })
  update(
    @Param('id') id: string,
    @Body() body: UpdateWebhookEndpointRequestDto,
    @Ctx() ctx: RequestContext,
  ): Promise<WebhookEndpointDto> {
    return this.commands.execute(new UpdateWebhookEndpoint(id, accountOf(ctx), body, eventMetadata(ctx)));
  }

  @Post(':id/rotate-secret')
  @HttpCode(200)
  @ApiOkResponse({
    type: WebhookSecretRotatedDto,
    description: 'The new secret (shown only here) signs at once; the previous one keeps signing too for 24 hours',
  })
  rotate(@Param('id') id: string, @Ctx() ctx: RequestContext): Promise<WebhookSecretRotatedDto> {
    return this.commands.execute(new RotateWebhookSecret(id, accountOf(ctx), eventMetadata(ctx)));
  }

  @Post(':id/test')
  @HttpCode(202)
  @ApiAcceptedResponse({ type: WebhookDeliveryDto, description: 'A ping event to this endpoint, attempted at once' })
  test(@Param('id') id: string, @Ctx() ctx: RequestContext): Promise<WebhookDeliveryDto> {
    return this.commands.execute(new PingWebhookEndpoint(id, accountOf(ctx), eventMetadata(ctx)));
  }

  @Delete(':id')
  @HttpCode(204)
  @ApiNoContentResponse({ description: 'Pending deliveries are abandoned; the signing secrets become unrecoverable' })
  async remove(@Param('id') id: string, @Ctx() ctx: RequestContext): Promise<void> {
    await this.commands.execute(new DeleteWebhookEndpoint(id, accountOf(ctx), eventMetadata(ctx)));
  }
}
