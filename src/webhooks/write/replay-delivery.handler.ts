import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { EventMetadata } from '../../infrastructure/event-store/event-store.port';
import { deliveryDto, WebhookDeliveryDto } from '../read/webhook.dto';
import { CLOCK, Clock } from '../../shared/clock';
import { DomainError } from '../../shared/domain-error';
import { CommandRunner } from '../../write/command-runner';
import { WebhookEndpointSupport } from '../http/webhook-endpoint-support';
import { webhookDeliveryDecider, webhookDeliveryStream } from '../domain/webhook-delivery.decider';

export class ReplayWebhookDelivery {
  constructor(
    readonly deliveryId: string,
    readonly accountId: string,
    readonly metadata: EventMetadata,
  ) {}
}

/**
 * Sends the same event (same webhook-id, so receivers can deduplicate) again at once, with a new
 * round of the retry schedule. The endpoint must be enabled: a replay to a disabled endpoint
 * would only be abandoned.
 */
@CommandHandler(ReplayWebhookDelivery)
export class ReplayWebhookDeliveryHandler implements ICommandHandler<ReplayWebhookDelivery, WebhookDeliveryDto> {
  constructor(
    private readonly runner: CommandRunner,
    private readonly support: WebhookEndpointSupport,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ deliveryId, accountId, metadata }: ReplayWebhookDelivery): Promise<WebhookDeliveryDto> {
    const delivery = await this.support.delivery(accountId, deliveryId);
    const endpoint = await this.support.endpoint(accountId, delivery.endpoint_id).catch(() => null);
    if (!endpoint) throw new DomainError('conflict', 'The endpoint of this delivery was deleted');
    if (!endpoint.enabled)
      throw new DomainError('conflict', 'The endpoint is disabled: enable it (PATCH enabled=true) before replaying');
    const ref = { delivery_id: delivery.id, endpoint_id: delivery.endpoint_id, account_id: delivery.account_id };
    const outcome = await this.runner.run(
      webhookDeliveryStream(deliveryId),
      webhookDeliveryDecider,
      { type: 'ReplayDelivery', data: { ref, at: this.clock.now() } },
      metadata,
    );
    await this.support.settled(outcome.position);
    return deliveryDto(await this.support.delivery(accountId, deliveryId));
  }
}
