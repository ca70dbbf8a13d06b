import { CommandBus } from '@nestjs/cqrs';
import { BeforeApplicationShutdown, Inject, Injectable, OnApplicationBootstrap } from '@nestjs/common';
import type { Logger } from 'pino';
import { randomBytes } from 'node:crypto';
import { CLUSTER, ClusterServices } from '../../infrastructure/cluster/cluster.port';
import { READ_MODEL_STORE, ReadModelStore } from '../../infrastructure/read-model/read-model-store.port';
import { WEBHOOK_SETTINGS, WebhookSettings } from '../webhooks.settings';
import { AppLogger } from '../../platform/logging/logging';
import { WebhookReadModels } from '../projections/webhook-read-models.service';
import {
  DeliveryView,
  deliveryViewCodec,
  EndpointView,
  endpointViewCodec,
  webhookKeys,
} from '../projections/webhook-views';
import { CLOCK, Clock } from '../../shared/clock';
import { decideOnView } from './delivery-outcome';
import { DisableWebhookEndpoint } from '../write/webhook-endpoint.handlers';
import type { WebhookWrite } from '../write/webhook-write';
import { WebhookDeliveryCommand } from '../domain/webhook-delivery.decider';
import { DeliveryRef, WebhookDeliveryEvent } from '../domain/webhook-delivery.events';
import { EndpointSecrets } from './endpoint-secrets';
import { signedHeaders } from '../domain/webhook-signer';
import { WEBHOOK_SENDER, WebhookSender } from './webhook.sender';

/**
 * Polls the due queue (a read model, rebuilt from the event store after any restart), sends each
 * due delivery, and records the outcome in the delivery's stream with the expected version it
 * saw: when two workers pick the same delivery, one records the attempt and the other's append
 * fails and is dropped (at-least-once towards the receiver, exactly once in the history).
 * Instances sharing Redis also claim each attempt (delivery and revision, SET NX with a TTL
 * longer than an attempt) before sending, so a receiver gets a second copy only when the claimant
 * died mid-attempt.
 */
@Injectable()
export class WebhookDeliveryWorker implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger: Logger;
  private readonly inFlight = new Map<string, Promise<void>>();
  private timer: NodeJS.Timeout | null = null;
  private polling = false;
  private stopped = false;
  private paused = false;
  private readonly claimant = randomBytes(8).toString('hex');

  constructor(
    @Inject(READ_MODEL_STORE) private readonly store: ReadModelStore,
    private readonly commands: CommandBus,
    private readonly readModels: WebhookReadModels,
    private readonly secrets: EndpointSecrets,
    @Inject(WEBHOOK_SENDER) private readonly sender: WebhookSender,
    @Inject(WEBHOOK_SETTINGS) private readonly settings: WebhookSettings,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(CLUSTER) private readonly cluster: ClusterServices | null,
    logging: AppLogger,
  ) {
    this.logger = logging.for('webhooks');
  }

  onApplicationBootstrap(): void {
    this.schedule(0);
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await Promise.allSettled([...this.inFlight.values()]);
  }

  /** Stops taking due deliveries (those in flight finish): for maintenance, and for the bench to build a backlog. */
  pause(): void {
    this.paused = true;
    if (this.timer) clearTimeout(this.timer);
  }

  resume(): void {
    this.paused = false;
    this.kick();
  }

  /** Poll now (a delivery finished, so a slot is free) unless a poll is already running. */
  private kick(): void {
    if (!this.polling && !this.stopped && !this.paused) this.schedule(0);
  }

  private schedule(delayMs: number): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.tick(), delayMs);
    this.timer.unref();
  }

  private async tick(): Promise<void> {
    if (this.stopped || this.paused) return;
    this.polling = true;
    try {
      await this.pollOnce();
    } catch (error) {
      this.logger.warn({ err: { message: (error as Error).message } }, 'webhook poll failed');
    } finally {
      this.polling = false;
    }
    // Jitter spreads the polls of several instances over the interval.
    if (!this.stopped && !this.paused) this.schedule(this.settings.pollIntervalMs * (0.5 + Math.random()));
  }

  /** Starts the due deliveries that fit in the free slots; returns how many it started. */
  async pollOnce(): Promise<number> {
    const free = this.settings.concurrency - this.inFlight.size;
    if (free <= 0) return 0;
    const page = await this.store.page(
      webhookKeys.due,
      webhookKeys.deliveryPrefix,
      0,
      free + this.inFlight.size,
      'asc',
    );
    const now = this.clock.now().getTime();
    let started = 0;
    for (const raw of page.values) {
      const delivery = started < free ? deliveryViewCodec.decode(raw) : null;
      if (!delivery) continue;
      if (delivery.status !== 'pending' || !delivery.next_attempt_at || this.inFlight.has(delivery.id)) continue;
      if (Date.parse(delivery.next_attempt_at) > now) break;
      started++;
      const job = this.attempt(delivery)
        .catch((error: Error) =>
          this.logger.warn(
            { delivery_id: delivery.id, err: { message: error.message } },
            'webhook attempt not recorded; retried at the next poll',
          ),
        )
        .finally(() => {
          this.inFlight.delete(delivery.id);
          this.kick();
        });
      this.inFlight.set(delivery.id, job);
    }
    return started;
  }

  private async attempt(delivery: DeliveryView): Promise<void> {
    if (!(await this.claim(delivery))) return;
    const ref: DeliveryRef = {
      delivery_id: delivery.id,
      endpoint_id: delivery.endpoint_id,
      account_id: delivery.account_id,
    };
    const endpoint = endpointViewCodec.decode(await this.store.get(webhookKeys.endpoint(delivery.endpoint_id)));
    if (!endpoint)
      return void (await this.record(delivery, {
        type: 'AbandonDelivery',
        data: { ref, reason: 'endpoint_deleted', at: this.clock.now() },
      }));
    if (!endpoint.enabled)
      return void (await this.record(delivery, {
        type: 'AbandonDelivery',
        data: { ref, reason: 'endpoint_disabled', at: this.clock.now() },
      }));
    const secrets = await this.secrets.signingSecrets(endpoint.id, endpoint.revision, this.clock.now());
    if (!secrets)
      return void (await this.record(delivery, {
        type: 'AbandonDelivery',
        data: { ref, reason: 'endpoint_deleted', at: this.clock.now() },
      }));
    const body = await this.store.get(webhookKeys.deliveryBody(delivery.id));
    if (body === null) throw new Error(`delivery ${delivery.id} has no body in the read model`);
    const sentAt = this.clock.now();
    const headers = signedHeaders(secrets, delivery.event_id, Math.floor(sentAt.getTime() / 1000), body);
    const result = await this.sender.send({ url: endpoint.url, headers, body });
    const events = await this.record(delivery, {
      type: 'RecordAttempt',
      data: { ref, result, at: this.clock.now(), retryScheduleMs: this.settings.retryScheduleMs },
    });
    const failed = events?.find((e) => e.type === 'DeliveryFailed');
    if (failed?.type !== 'DeliveryFailed') return;
    if (failed.data.reason === 'endpoint_gone') {
      await this.disable(
        endpoint,
        `The endpoint answered 410 Gone to delivery ${delivery.id} at ${failed.data.failed_at}`,
      );
    } else if (
      failed.data.reason === 'exhausted' &&
      !(endpoint.last_success_at && endpoint.last_success_at >= delivery.created_at)
    ) {
      const last = failed.data.last_attempt;
      const cause = last?.response_status ? `HTTP ${last.response_status}` : (last?.error ?? 'no response');
      await this.disable(
        endpoint,
        `Delivery ${delivery.id} (${delivery.event_type}) failed all ${last?.attempt ?? delivery.attempts} attempts, the last with ${cause}, and nothing was delivered since ${delivery.created_at}`,
      );
    }
  }

  /** One instance per attempt: the claim names the revision, so the next attempt is claimed anew. */
  private async claim(delivery: DeliveryView): Promise<boolean> {
    if (!this.cluster) return true; // one process: inFlight already keeps attempts apart
    const key = `${this.cluster.namespace}webhook:claim:${delivery.id}:${delivery.revision}`;
    const ttlMs = this.settings.timeoutMs + 30_000;
    return (await this.cluster.redis.set(key, this.claimant, 'PX', ttlMs, 'NX')) === 'OK';
  }

  /** The outcome, decided and appended (decideOnView); the due queue shows it before the delivery can be picked again. */
  private async record(
    delivery: DeliveryView,
    command: WebhookDeliveryCommand,
  ): Promise<WebhookDeliveryEvent[] | null> {
    const outcome = await decideOnView(this.commands, delivery, command);
    if (outcome?.position) await this.readModels.waitFor(outcome.position);
    return outcome?.events ?? null;
  }

  private async disable(endpoint: EndpointView, reason: string): Promise<void> {
    const outcome: WebhookWrite = await this.commands.execute(new DisableWebhookEndpoint(endpoint.id, reason));
    await this.readModels.waitFor(outcome.position);
    this.logger.warn({ endpoint_id: endpoint.id, reason }, 'webhook endpoint disabled');
  }
}
