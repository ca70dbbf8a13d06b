import { Inject, Injectable } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { LEADER_LEASE, LeaderLease } from '../../infrastructure/cluster/leader-lease.port';
import { LeasedPeriodicWorker } from '../../infrastructure/cluster/leased-periodic-worker';
import { READ_MODEL_STORE, ReadModelStore } from '../../infrastructure/read-model/read-model-store.port';
import { WEBHOOK_SETTINGS, WebhookSettings } from '../webhooks.settings';
import { AppLogger } from '../../platform/logging/logging';
import { WebhookReadModels } from '../projections/webhook-read-models.service';
import { AlertRuleView, alertRuleViewCodec, webhookKeys } from '../projections/webhook-views';
import { AnalyticsQueryDto } from '../../analytics/read/analytics.dto';
import { GetAnalyticsOverview } from '../../analytics/read/analytics.queries';
import { CLOCK, Clock } from '../../shared/clock';
import { EvaluateAlertRule } from '../write/alert-rule.handlers';
import type { WebhookWrite } from '../write/webhook-write';
import type { AlertRuleEvent } from '../domain/alert-rule.events';
import { AlertMetric } from '../domain/alert-rule.events';

const PAGE = 500;

interface Overview {
  summary: { total_calls: number; success_rate: number };
  performance: { p95_latency_ms: number; p99_latency_ms: number; avg_ai_latency_ms: number };
  quality: { avg_packet_loss_percent: number };
  rejections: { total: number };
}

/** A metric as GET /analytics/overview reports it for the same window: one definition for both. */
export function metricOf(overview: Overview, metric: AlertMetric): number {
  switch (metric) {
    case 'p95_latency_ms':
      return overview.performance.p95_latency_ms;
    case 'p99_latency_ms':
      return overview.performance.p99_latency_ms;
    case 'avg_ai_latency_ms':
      return overview.performance.avg_ai_latency_ms;
    case 'success_rate':
      return overview.summary.success_rate;
    case 'avg_packet_loss_percent':
      return overview.quality.avg_packet_loss_percent;
    case 'rejections':
      return overview.rejections.total;
  }
}

/**
 * Every ALERT_EVALUATION_INTERVAL_MS, each rule's metric over its trailing window, computed by the
 * analytics overview query itself (the ClickHouse hourly aggregates plus the raw edge hours), is
 * handed to the rule's decider; it appends AlertTriggered/AlertResolved only on a change, with
 * the expected version, so restarts and concurrent evaluators fire each transition once.
 */
@Injectable()
export class AlertEvaluator extends LeasedPeriodicWorker {
  /**
   * One evaluator among instances (a Redis lease; the process itself without Redis): the
   * expected version already makes each transition fire once, the lease spares the duplicate
   * ClickHouse queries.
   */
  constructor(
    @Inject(READ_MODEL_STORE) private readonly store: ReadModelStore,
    private readonly queries: QueryBus,
    private readonly commands: CommandBus,
    private readonly readModels: WebhookReadModels,
    @Inject(LEADER_LEASE) lease: LeaderLease,
    @Inject(WEBHOOK_SETTINGS) private readonly settings: WebhookSettings,
    @Inject(CLOCK) private readonly clock: Clock,
    logging: AppLogger,
  ) {
    super(
      lease,
      { name: 'alert-evaluator', intervalMs: settings.alertEvaluationIntervalMs, failure: 'alert evaluation failed' },
      logging.for('alerts'),
    );
  }

  protected round(): Promise<void> {
    return this.evaluateAll();
  }

  async evaluateAll(): Promise<void> {
    for (let offset = 0; !this.stopped; offset += PAGE) {
      const page = await this.store.page(webhookKeys.allAlertRules, webhookKeys.alertRulePrefix, offset, PAGE, 'asc');
      for (const rule of alertRuleViewCodec.decodeAll(page.values)) {
        if (!this.stopped) await this.evaluate(rule);
      }
      if (offset + PAGE >= page.total) return;
    }
  }

  private async evaluate(rule: AlertRuleView): Promise<void> {
    const now = this.clock.now();
    const query = {
      start_date: new Date(now.getTime() - rule.window_minutes * 60_000).toISOString(),
      end_date: now.toISOString(),
      granularity: 'daily',
      ...(rule.trunk_id ? { trunk_id: rule.trunk_id } : {}),
    } as AnalyticsQueryDto;
    const overview = (await this.queries.execute(new GetAnalyticsOverview(rule.account_id, query, now))) as Overview;
    const calls = overview.summary.total_calls;
    // A window without calls has no rate or latency to judge; refused INVITEs it can have.
    const value = calls > 0 || rule.metric === 'rejections' ? metricOf(overview, rule.metric) : null;
    const outcome: WebhookWrite & { events: AlertRuleEvent[] } = await this.commands.execute(
      new EvaluateAlertRule(rule.id, value, calls, now),
    );
    if (outcome.events.length > 0) {
      this.logger.info({ rule_id: rule.id, event: outcome.events[0].type, value }, 'alert rule changed state');
      await this.readModels.waitFor(outcome.position);
    }
  }
}
