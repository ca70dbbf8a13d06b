import { eventGuard } from '../../shared/event-guard';

export const ALERT_METRICS = [
  'p95_latency_ms',
  'p99_latency_ms',
  'avg_ai_latency_ms',
  'success_rate',
  'avg_packet_loss_percent',
  // INVITEs the SIP gateway refused in the window (docs/sip-gateway.md): judged with or without calls.
  'rejections',
] as const;
export type AlertMetric = (typeof ALERT_METRICS)[number];
export const ALERT_COMPARISONS = ['gt', 'gte', 'lt', 'lte'] as const;
export type AlertComparison = (typeof ALERT_COMPARISONS)[number];

export interface AlertCondition {
  metric: AlertMetric;
  comparison: AlertComparison;
  threshold: number;
  window_minutes: number;
  /** null: every trunk of the account. */
  trunk_id: string | null;
}

export type AlertRuleCreated = {
  type: 'AlertRuleCreated';
  data: AlertCondition & { rule_id: string; account_id: string; name: string | null; created_at: string };
};

/** The condition started to hold at this evaluation. */
export type AlertTriggered = {
  type: 'AlertTriggered';
  data: AlertCondition & { rule_id: string; account_id: string; value: number; calls: number; triggered_at: string };
};

/** The condition stopped holding. */
export type AlertResolved = {
  type: 'AlertResolved';
  data: AlertCondition & { rule_id: string; account_id: string; value: number; calls: number; resolved_at: string };
};

export type AlertRuleDeleted = {
  type: 'AlertRuleDeleted';
  data: { rule_id: string; account_id: string; deleted_at: string };
};

export type AlertRuleEvent = AlertRuleCreated | AlertTriggered | AlertResolved | AlertRuleDeleted;

export const isAlertRuleEvent = eventGuard<AlertRuleEvent>({
  AlertRuleCreated: true,
  AlertTriggered: true,
  AlertResolved: true,
  AlertRuleDeleted: true,
});
