import { BeforeApplicationShutdown, Inject, Injectable, OnApplicationBootstrap } from '@nestjs/common';
import type { Logger } from 'pino';
import { CLUSTER, ClusterServices } from '../../infrastructure/cluster/cluster.port';
import { Leadership } from '../../infrastructure/cluster/leader-lease.port';
import { EVENT_STORE, EventStore, GlobalPosition } from '../../infrastructure/event-store/event-store.port';
import { READ_MODEL_STORE, ReadModelStore } from '../../infrastructure/read-model/read-model-store.port';
import { PROJECTION_SETTINGS, ProjectionSettings } from '../../eventsourcing/projection.settings';
import { AppLogger } from '../../platform/logging/logging';
import { readModelRunner } from '../../eventsourcing/led-projection';
import { ProjectionRunner } from '../../eventsourcing/projection-runner';
import { SharedCheckpoint } from '../../eventsourcing/shared-checkpoint';
import { alertRulesProjection } from './alert-rules.projection';
import { webhookDeliveriesProjection } from './webhook-deliveries.projection';
import { webhookEndpointsProjection } from './webhook-endpoints.projection';

const NAME = 'webhooks';

/** The webhook projections, in the order they apply each event (also used by projections:rebuild). */
export const webhookProjections = () => [webhookEndpointsProjection, webhookDeliveriesProjection, alertRulesProjection];

/**
 * The webhook read models (endpoints, deliveries and the due queue, alert rules) under their own
 * checkpointed runner in the same read-model store: endpoints apply before deliveries for each
 * event, so a delivery is derived from the subscriptions as they were at that event's position.
 * With Redis (several instances) the runner runs only on the holder of its lease, as the other
 * read models do, and writes wait on the shared checkpoint.
 */
@Injectable()
export class WebhookReadModels implements OnApplicationBootstrap, BeforeApplicationShutdown {
  readonly runner: ProjectionRunner;
  private readonly logger: Logger;
  private readonly shared: SharedCheckpoint | null = null;
  private readonly starter: () => Promise<Leadership>;
  private leadership: Leadership | null = null;

  constructor(
    @Inject(EVENT_STORE) events: EventStore,
    @Inject(READ_MODEL_STORE) store: ReadModelStore,
    @Inject(PROJECTION_SETTINGS) private readonly settings: ProjectionSettings,
    @Inject(CLUSTER) cluster: ClusterServices | null,
    logging: AppLogger,
  ) {
    this.logger = logging.for('webhook-projections');
    const projections = webhookProjections();
    const setup = readModelRunner(
      cluster,
      NAME,
      projections,
      store,
      settings.readModelNamespace,
      events,
      settings.batchSize,
    );
    this.runner = setup.runner;
    this.shared = setup.shared;
    this.starter = () => setup.start();
  }

  async onApplicationBootstrap(): Promise<void> {
    await this.shared?.start();
    this.leadership = await this.starter();
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.leadership?.stop();
    this.shared?.stop();
  }

  /** Read-your-writes for the webhook routes, bounded like the other writes. */
  async waitFor(position: GlobalPosition | null): Promise<boolean> {
    if (position === null) return true;
    const reached = await (this.shared ?? this.runner).waitFor(position, this.settings.consistencyTimeoutMs);
    if (!reached)
      this.logger.warn({ timeout_ms: this.settings.consistencyTimeoutMs }, 'webhook read models lag behind a write');
    return reached;
  }
}
