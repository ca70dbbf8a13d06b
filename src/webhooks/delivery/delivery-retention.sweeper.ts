import { CommandBus } from '@nestjs/cqrs';
import { Inject, Injectable } from '@nestjs/common';
import { LEADER_LEASE, LeaderLease } from '../../infrastructure/cluster/leader-lease.port';
import { LeasedPeriodicWorker } from '../../infrastructure/cluster/leased-periodic-worker';
import { GlobalPosition } from '../../infrastructure/event-store/event-store.port';
import { READ_MODEL_STORE, ReadModelStore } from '../../infrastructure/read-model/read-model-store.port';
import { WEBHOOK_SETTINGS, WebhookSettings } from '../webhooks.settings';
import { AppLogger } from '../../platform/logging/logging';
import { WebhookReadModels } from '../projections/webhook-read-models.service';
import { DeliveryView, deliveryViewCodec, webhookKeys } from '../projections/webhook-views';
import { CLOCK, Clock } from '../../shared/clock';
import { decideOnView } from './delivery-outcome';

const BATCH = 200;

/**
 * Keeps the delivery read models bounded: every WEBHOOK_RETENTION_SWEEP_MS, finished
 * (succeeded or failed) deliveries older than WEBHOOK_DELIVERY_RETENTION_MS get a DeliveryExpired
 * event, appended with the revision the view shows (a replay in between wins), and the projection
 * removes them from the lists, the view and the body. Their streams stay in the event store, so a
 * rebuild removes them again and auditors keep the history. One sweeper among instances (a lease).
 */
@Injectable()
export class DeliveryRetentionSweeper extends LeasedPeriodicWorker {
  constructor(
    @Inject(READ_MODEL_STORE) private readonly store: ReadModelStore,
    private readonly commands: CommandBus,
    private readonly readModels: WebhookReadModels,
    @Inject(LEADER_LEASE) lease: LeaderLease,
    @Inject(WEBHOOK_SETTINGS) private readonly settings: WebhookSettings,
    @Inject(CLOCK) private readonly clock: Clock,
    logging: AppLogger,
  ) {
    super(
      lease,
      { name: 'webhook-retention', intervalMs: settings.retentionSweepMs, failure: 'webhook retention sweep failed' },
      logging.for('webhook-retention'),
    );
  }

  protected round(): Promise<number> {
    return this.sweep();
  }

  /** Expires every finished delivery past the window; returns how many. */
  async sweep(): Promise<number> {
    let expired = 0;
    while (!this.stopped) {
      const cutoff = this.clock.now().getTime() - this.settings.deliveryRetentionMs;
      // Oldest first: the batch ends at the first delivery still inside the window.
      const page = await this.store.page(webhookKeys.finished, webhookKeys.deliveryPrefix, 0, BATCH, 'asc');
      const due = deliveryViewCodec
        .decodeAll(page.values)
        .filter(
          (view) => (view.status === 'succeeded' || view.status === 'failed') && Date.parse(view.updated_at) <= cutoff,
        );
      let position: GlobalPosition | null = null;
      for (const view of due) {
        const appended = await this.expire(view);
        if (appended !== null) {
          position = appended;
          expired++;
        }
      }
      if (position !== null) await this.readModels.waitFor(position);
      // Done when nothing more is due, or nothing could be expired (a replay raced every one).
      if (due.length < BATCH || position === null) break;
    }
    if (expired > 0) this.logger.info({ expired }, 'expired finished webhook deliveries past the retention window');
    return expired;
  }

  private async expire(view: DeliveryView): Promise<GlobalPosition | null> {
    const ref = { delivery_id: view.id, endpoint_id: view.endpoint_id, account_id: view.account_id };
    const outcome = await decideOnView(this.commands, view, {
      type: 'ExpireDelivery',
      data: { ref, at: this.clock.now(), finishedAt: view.updated_at },
    });
    return outcome?.position ?? null;
  }
}
