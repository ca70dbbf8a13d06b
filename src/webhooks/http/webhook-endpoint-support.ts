import { isIP } from 'node:net';
import { Inject, Injectable } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { GlobalPosition } from '../../infrastructure/event-store/event-store.port';
import { WEBHOOK_SETTINGS, WebhookSettings } from '../webhooks.settings';
import { invalidField } from '../../shared/domain-error';
import { CallCompletedRecorder } from '../calls/call-completed.recorder';
import { EndpointSecrets } from '../delivery/endpoint-secrets';
import { isForbiddenAddress } from '../delivery/ssrf.guard';
import { WebhookReadModels } from '../projections/webhook-read-models.service';
import { WebhookDeliveryDto, WebhookEndpointDto } from '../read/webhook.dto';
import { GetWebhookDelivery, GetWebhookEndpoint } from '../read/webhook.queries';

/**
 * The HTTP edge of the webhook routes: checks before a command (URL policy, the resources it
 * names), read-your-writes after it, and the view it answers with, read through the query bus.
 * Commands decide from their streams only; this is the one place that composes both sides.
 */
@Injectable()
export class WebhookEndpointSupport {
  constructor(
    @Inject(WEBHOOK_SETTINGS) private readonly settings: WebhookSettings,
    private readonly queries: QueryBus,
    private readonly readModels: WebhookReadModels,
    private readonly callSubscribers: CallCompletedRecorder,
    private readonly unsealed: EndpointSecrets,
  ) {}

  /**
   * Early refusal of targets that are certainly internal (an IP literal in a private range, or
   * localhost). Names are resolved, and checked again, on every attempt by the sender's guard.
   */
  checkUrl(url: string | undefined): void {
    if (url === undefined || this.settings.allowPrivate) return;
    const host = new URL(url).hostname.replace(/^\[|\]$/g, '').toLowerCase();
    const internal =
      host === 'localhost' || host.endsWith('.localhost') || (isIP(host) !== 0 && isForbiddenAddress(host));
    if (internal)
      throw invalidField(
        'url',
        'url must not point to a private, loopback or link-local address (WEBHOOK_ALLOW_PRIVATE is off)',
      );
  }

  /** Waits for the webhook read models, then refreshes this instance's call.completed set. */
  async settled(position: GlobalPosition | null): Promise<void> {
    await this.readModels.waitFor(position);
    await this.callSubscribers.refresh();
  }

  /** After a delete: this instance's unsealed copy goes at once (the data key is destroyed). */
  forgetSecret(endpointId: string): void {
    this.unsealed.forget(endpointId);
  }

  endpoint(accountId: string, endpointId: string): Promise<WebhookEndpointDto> {
    return this.queries.execute(new GetWebhookEndpoint(accountId, endpointId));
  }

  delivery(accountId: string, deliveryId: string): Promise<WebhookDeliveryDto> {
    return this.queries.execute(new GetWebhookDelivery(accountId, deliveryId));
  }
}
