import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { EventMetadata } from '../../infrastructure/event-store/event-store.port';
import { CLOCK, Clock } from '../../shared/clock';
import { CommandRunner } from '../../eventsourcing/command-runner';
import { webhookDeliveryDecider, webhookDeliveryStream } from '../domain/webhook-delivery.decider';
import type { WebhookWrite } from './webhook-write';

export class ReplayWebhookDelivery {
  constructor(
    readonly deliveryId: string,
    readonly endpointId: string,
    readonly accountId: string,
    readonly metadata: EventMetadata,
  ) {}
}

/**
 * Sends the same event (same webhook-id, so receivers can deduplicate) again at once, with a new
 * round of the retry schedule. The caller has checked that the endpoint is there and enabled.
 */
@CommandHandler(ReplayWebhookDelivery)
export class ReplayWebhookDeliveryHandler implements ICommandHandler<ReplayWebhookDelivery, WebhookWrite> {
  constructor(
    private readonly runner: CommandRunner,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ deliveryId, endpointId, accountId, metadata }: ReplayWebhookDelivery): Promise<WebhookWrite> {
    const ref = { delivery_id: deliveryId, endpoint_id: endpointId, account_id: accountId };
    const outcome = await this.runner.run(
      webhookDeliveryStream(deliveryId),
      webhookDeliveryDecider,
      { type: 'ReplayDelivery', data: { ref, at: this.clock.now() } },
      metadata,
    );
    return { position: outcome.position };
  }
}
