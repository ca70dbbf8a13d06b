import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { READ_MODEL_STORE, ReadModelStore } from '../../infrastructure/read-model/read-model-store.port';
import { notFound } from '../../shared/domain-error';
import { deliveryViewCodec, webhookKeys } from '../projections/webhook-views';
import { deliveryDto, WebhookDeliveryDto } from './webhook.dto';

export class GetWebhookDelivery {
  constructor(
    readonly accountId: string,
    readonly deliveryId: string,
  ) {}
}

/** Another account's delivery is reported exactly like a missing one. */
@QueryHandler(GetWebhookDelivery)
export class GetWebhookDeliveryHandler implements IQueryHandler<GetWebhookDelivery, WebhookDeliveryDto> {
  constructor(@Inject(READ_MODEL_STORE) private readonly store: ReadModelStore) {}

  async execute({ accountId, deliveryId }: GetWebhookDelivery): Promise<WebhookDeliveryDto> {
    const view = deliveryViewCodec.decode(await this.store.get(webhookKeys.delivery(deliveryId)));
    if (!view || view.account_id !== accountId) throw notFound('Webhook delivery');
    return deliveryDto(view);
  }
}
