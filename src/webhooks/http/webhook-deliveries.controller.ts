import { Controller, HttpCode, Param, Post } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiAcceptedResponse, ApiBearerAuth, ApiTags, ApiOperation } from '@nestjs/swagger';
import { accountOf, Ctx, eventMetadata, RequestContext } from '../../platform/http/request-context';
import { WebhookDeliveryDto } from '../read/webhook.dto';
import { DomainError } from '../../shared/domain-error';
import { ReplayWebhookDelivery } from '../write/replay-delivery.handler';
import type { WebhookWrite } from '../write/webhook-write';
import { WebhookEndpointSupport } from './webhook-endpoint-support';

@ApiTags('webhooks')
@ApiBearerAuth()
@Controller('v1/webhook-deliveries')
export class WebhookDeliveriesWriteController {
  constructor(
    private readonly commands: CommandBus,
    private readonly edge: WebhookEndpointSupport,
  ) {}

  @Post(':id/replay')
  @ApiOperation({
    operationId: 'replayWebhookDelivery',
    description:
      'Sends a delivery again with the same event id (receivers deduplicate by it), e.g. after a receiver outage.',
    summary: 'Replay a webhook delivery',
  })
  @HttpCode(202)
  @ApiAcceptedResponse({
    type: WebhookDeliveryDto,
    description: 'The delivery is pending again and attempted at once, with the same event id',
  })
  async replay(@Param('id') id: string, @Ctx() ctx: RequestContext): Promise<WebhookDeliveryDto> {
    const accountId = accountOf(ctx);
    const delivery = await this.edge.delivery(accountId, id);
    // A replay to a deleted or disabled endpoint would only be abandoned.
    const endpoint = await this.edge.endpoint(accountId, delivery.endpoint_id).catch(() => null);
    if (!endpoint) throw new DomainError('conflict', 'The endpoint of this delivery was deleted');
    if (!endpoint.enabled)
      throw new DomainError('conflict', 'The endpoint is disabled: enable it (PATCH enabled=true) before replaying');
    const written: WebhookWrite = await this.commands.execute(
      new ReplayWebhookDelivery(id, delivery.endpoint_id, accountId, eventMetadata(ctx)),
    );
    await this.edge.settled(written.position);
    return this.edge.delivery(accountId, id);
  }
}
