import { Controller, HttpCode, Param, Post } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiAcceptedResponse, ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import { accountOf, Ctx, eventMetadata, RequestContext } from '../../platform/http/request-context';
import { WebhookDeliveryDto } from '../read/webhook.dto';
import { ReplayWebhookDelivery } from '../write/replay-delivery.handler';

@ApiTags('webhooks')
@ApiBearerAuth()
@Controller('v1/webhook-deliveries')
export class WebhookDeliveriesWriteController {
  constructor(private readonly commands: CommandBus) {}

  @Post(':id/replay')
  @HttpCode(202)
  @ApiAcceptedResponse({
    type: WebhookDeliveryDto,
    description: 'The delivery is pending again and attempted at once, with the same event id',
  })
  replay(@Param('id') id: string, @Ctx() ctx: RequestContext): Promise<WebhookDeliveryDto> {
    return this.commands.execute(new ReplayWebhookDelivery(id, accountOf(ctx), eventMetadata(ctx)));
  }
}
