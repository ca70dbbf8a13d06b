import { isIP } from 'node:net';
import { Inject, Injectable } from '@nestjs/common';
import { READ_MODEL_STORE, ReadModelStore } from '../../infrastructure/read-model/read-model-store.port';
import { APP_CONFIG, AppConfig } from '../../platform/config/app-config';
import { WebhookReadModels } from '../projections/webhook-read-models.service';
import { DeliveryView, EndpointView, webhookKeys } from '../projections/webhook-views';
import { invalidField, notFound } from '../../shared/domain-error';
import { CallCompletedRecorder } from '../calls/call-completed.recorder';
import { isForbiddenAddress } from '../delivery/ssrf.guard';
import { GlobalPosition } from '../../infrastructure/event-store/event-store.port';

/** What the endpoint handlers share: URL policy, read-your-writes, the views they answer with. */
@Injectable()
export class WebhookEndpointSupport {
  constructor(
    @Inject(READ_MODEL_STORE) private readonly store: ReadModelStore,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly readModels: WebhookReadModels,
    private readonly callSubscribers: CallCompletedRecorder,
  ) {}

  /**
   * Early refusal of targets that are certainly internal (an IP literal in a private range, or
   * localhost). Names are resolved, and checked again, on every attempt by the sender's guard.
   */
  checkUrl(url: string | undefined): void {
    if (url === undefined || this.config.webhookAllowPrivate) return;
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

  async endpoint(accountId: string, endpointId: string): Promise<EndpointView> {
    const raw = await this.store.get(webhookKeys.endpoint(endpointId));
    const view = raw ? (JSON.parse(raw) as EndpointView) : null;
    if (!view || view.account_id !== accountId) throw notFound('Webhook endpoint');
    return view;
  }

  async delivery(accountId: string, deliveryId: string): Promise<DeliveryView> {
    const raw = await this.store.get(webhookKeys.delivery(deliveryId));
    const view = raw ? (JSON.parse(raw) as DeliveryView) : null;
    if (!view || view.account_id !== accountId) throw notFound('Webhook delivery');
    return view;
  }
}
