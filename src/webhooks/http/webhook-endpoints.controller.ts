import { Body, Controller, Delete, HttpCode, Param, Patch, Post } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import {
  ApiAcceptedResponse,
  ApiBearerAuth,
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiTags,
  ApiOperation,
} from '@nestjs/swagger';
import { accountOf, Ctx, eventMetadata, RequestContext } from '../../platform/http/request-context';
import {
  WebhookDeliveryDto,
  WebhookEndpointCreatedDto,
  WebhookEndpointDto,
  WebhookSecretRotatedDto,
} from '../read/webhook.dto';
import {
  CreateWebhookEndpointRequestDto,
  UpdateWebhookEndpointRequestDto,
} from '../write/dto/webhook-endpoint.request.dto';
import {
  CreateWebhookEndpoint,
  DeleteWebhookEndpoint,
  PingWebhookEndpoint,
  RotateWebhookSecret,
  SecretRotated,
  UpdateWebhookEndpoint,
} from '../write/webhook-endpoint.handlers';
import type { WebhookWrite } from '../write/webhook-write';
import { deliveryIdOf } from '../domain/deterministic-id';
import { WebhookEndpointSupport } from './webhook-endpoint-support';

@ApiTags('webhooks')
@ApiBearerAuth()
@Controller('v1/webhook-endpoints')
export class WebhookEndpointsWriteController {
  constructor(
    private readonly commands: CommandBus,
    private readonly edge: WebhookEndpointSupport,
  ) {}

  @Post()
  @ApiOperation({
    operationId: 'createWebhookEndpoint',
    description:
      'Registers an https:// URL to receive webhook events, optionally only some types. The signing secret is returned once, here.',
    summary: 'Create a webhook endpoint',
  })
  @HttpCode(201)
  @ApiCreatedResponse({ type: WebhookEndpointCreatedDto, description: 'The signing secret is returned only here' })
  async create(
    @Body() body: CreateWebhookEndpointRequestDto,
    @Ctx() ctx: RequestContext,
  ): Promise<WebhookEndpointCreatedDto> {
    this.edge.checkUrl(body.url);
    const accountId = accountOf(ctx);
    const created: WebhookWrite & { endpointId: string; secret: string } = await this.commands.execute(
      new CreateWebhookEndpoint(accountId, body, eventMetadata(ctx)),
    );
    await this.edge.settled(created.position);
    return { ...(await this.edge.endpoint(accountId, created.endpointId)), secret: created.secret };
  }

  @Patch(':id')
  @ApiOperation({
    operationId: 'updateWebhookEndpoint',
    description: "Changes an endpoint's URL, description, event types or enabled flag.",
    summary: 'Update a webhook endpoint',
  })
  @ApiOkResponse({ type: WebhookEndpointDto })
  async update(
    @Param('id') id: string,
    @Body() body: UpdateWebhookEndpointRequestDto,
    @Ctx() ctx: RequestContext,
  ): Promise<WebhookEndpointDto> {
    this.edge.checkUrl(body.url);
    const accountId = accountOf(ctx);
    const written: WebhookWrite = await this.commands.execute(
      new UpdateWebhookEndpoint(id, accountId, body, eventMetadata(ctx)),
    );
    await this.edge.settled(written.position);
    return this.edge.endpoint(accountId, id);
  }

  @Post(':id/rotate-secret')
  @ApiOperation({
    operationId: 'rotateWebhookEndpointSecret',
    description:
      'Issues a new signing secret, returned once. It signs at once; for 24 hours every request also carries a signature made with the previous one.',
    summary: "Rotate a webhook endpoint's signing secret",
  })
  @HttpCode(200)
  @ApiOkResponse({
    type: WebhookSecretRotatedDto,
    description: 'The new secret (shown only here) signs at once; the previous one keeps signing too for 24 hours',
  })
  async rotate(@Param('id') id: string, @Ctx() ctx: RequestContext): Promise<WebhookSecretRotatedDto> {
    const accountId = accountOf(ctx);
    await this.edge.endpoint(accountId, id);
    const { position, ...rotated }: SecretRotated = await this.commands.execute(
      new RotateWebhookSecret(id, accountId, eventMetadata(ctx)),
    );
    await this.edge.settled(position);
    return rotated;
  }

  @Post(':id/test')
  @ApiOperation({
    operationId: 'sendWebhookTestEvent',
    description: 'Sends a ping event to this endpoint only, through the normal delivery path (signed, retried).',
    summary: 'Send a test event to a webhook endpoint',
  })
  @HttpCode(202)
  @ApiAcceptedResponse({ type: WebhookDeliveryDto, description: 'A ping event to this endpoint, attempted at once' })
  async test(@Param('id') id: string, @Ctx() ctx: RequestContext): Promise<WebhookDeliveryDto> {
    const accountId = accountOf(ctx);
    const pinged: WebhookWrite & { eventId: string } = await this.commands.execute(
      new PingWebhookEndpoint(id, accountId, eventMetadata(ctx)),
    );
    await this.edge.settled(pinged.position);
    return this.edge.delivery(accountId, deliveryIdOf(pinged.eventId, id));
  }

  @Delete(':id')
  @ApiOperation({
    operationId: 'deleteWebhookEndpoint',
    description: 'Deletes an endpoint; its pending deliveries are abandoned.',
    summary: 'Delete a webhook endpoint',
  })
  @HttpCode(204)
  @ApiNoContentResponse({ description: 'Pending deliveries are abandoned; the signing secrets become unrecoverable' })
  async remove(@Param('id') id: string, @Ctx() ctx: RequestContext): Promise<void> {
    const written: WebhookWrite = await this.commands.execute(
      new DeleteWebhookEndpoint(id, accountOf(ctx), eventMetadata(ctx)),
    );
    this.edge.forgetSecret(id);
    await this.edge.settled(written.position);
  }
}
