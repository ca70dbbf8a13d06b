import { setTimeout as sleep } from 'node:timers/promises';
import { BeforeApplicationShutdown, Inject, Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { Logger } from 'pino';
import { CallBatchListener } from '../../calls/ingestion/call-batch-listener.port';
import { EnrichedCallRecord, listRowOf, rowOf } from '../../calls/ingestion/call-record.row';
import { callListItem } from '../../calls/contracts/call-list-item';
import { READ_MODEL_STORE, ReadModelStore } from '../../infrastructure/read-model/read-model-store.port';
import { WEBHOOK_SETTINGS, WebhookSettings } from '../webhooks.settings';
import { AppLogger } from '../../platform/logging/logging';
import { WebhookReadModels } from '../projections/webhook-read-models.service';
import { webhookKeys } from '../projections/webhook-views';
import { DomainError } from '../../shared/domain-error';
import { CompletedCall } from '../domain/calls-completed.event';
import { RecordCallsCompleted } from '../write/record-calls-completed.handler';

/** How often this instance re-reads which accounts receive call.completed (others' changes). */
const REFRESH_MS = 1000;
/** The subscriptions are current enough once the webhook read models are this close to the store. */
const CURRENT_LAG_MS = 1000;

/**
 * Ingestion's only webhook cost: a Set lookup per batch. For an account with an enabled endpoint
 * receiving call.completed, the write side records the batch's calls as one CallsCompleted event
 * (one append) before the 200.
 */
@Injectable()
export class CallCompletedRecorder implements CallBatchListener, OnApplicationBootstrap, BeforeApplicationShutdown {
  private accounts = new Set<string>();
  private timer: NodeJS.Timeout | null = null;
  /** False until the webhook read models have caught up once since start (memory ones replay from zero). */
  private current = false;
  private readonly logger: Logger;

  constructor(
    @Inject(READ_MODEL_STORE) private readonly store: ReadModelStore,
    private readonly commands: CommandBus,
    private readonly readModels: WebhookReadModels,
    @Inject(WEBHOOK_SETTINGS) private readonly settings: WebhookSettings,
    logging: AppLogger,
  ) {
    this.logger = logging.for('webhooks');
  }

  async onApplicationBootstrap(): Promise<void> {
    await this.refresh().catch(() => undefined);
    this.timer = setInterval(
      () =>
        void this.refresh().catch((err: Error) =>
          this.logger.warn({ err: { message: err.message } }, 'call.completed subscribers not refreshed'),
        ),
      REFRESH_MS,
    );
    this.timer.unref();
  }

  beforeApplicationShutdown(): void {
    if (this.timer) clearInterval(this.timer);
  }

  /** Called by endpoint writes on this instance once their projection has applied them. */
  async refresh(): Promise<void> {
    const count = await this.store.zcard(webhookKeys.callSubscribers);
    this.accounts = new Set(count > 0 ? await this.store.zrange(webhookKeys.callSubscribers, 0, count, 'asc') : []);
  }

  async callsAccepted(accountId: string, records: EnrichedCallRecord[]): Promise<void> {
    if (!this.current) await this.becomeCurrent();
    if (!this.accounts.has(accountId)) return;
    await this.commands.execute(new RecordCallsCompleted(accountId, records.map(completedCallOf)));
  }

  /**
   * Right after a start the subscriptions may not be projected yet (memory read models replay
   * from zero): acknowledging a batch before they are could drop its call.completed events. Waits
   * until the webhook read models have caught up with the store once; under a steady stream of
   * writes, being less than a second behind is enough. Past the bound the batch is refused with
   * 503 and the gateway sends it again.
   */
  private async becomeCurrent(): Promise<void> {
    const deadline = Date.now() + this.settings.consistencyTimeoutMs;
    for (;;) {
      const status = await this.readModels.runner.status();
      if (status.caughtUp || (Date.now() >= deadline && status.lagMs < CURRENT_LAG_MS)) {
        await this.refresh();
        this.current = true;
        return;
      }
      if (Date.now() >= deadline) break;
      await sleep(50);
    }
    throw new DomainError(
      'service_unavailable',
      'Webhook subscriptions are still being restored after a start; retry',
      { retryAfterSeconds: 1 },
    );
  }
}

/** The list form of GET /v1/calls, built from the row as stored (rowOf) by the list's own function. */
export function completedCallOf(record: EnrichedCallRecord): CompletedCall {
  return callListItem(listRowOf(rowOf(record, 1, new Date(0))));
}
