import {
  AlertCondition,
  AlertResolved,
  AlertRuleCreated,
  AlertRuleDeleted,
  AlertTriggered,
} from '../../src/webhooks/domain/alert-rule.events';
import { eventBuilder } from './event-builder';
import { AT, LATER } from './trunk-builders';

export const CONDITION: AlertCondition = {
  metric: 'p95_latency_ms',
  comparison: 'gt',
  threshold: 1000,
  window_minutes: 5,
  trunk_id: null,
};
const rule = { rule_id: 'ar_1', account_id: 'acct_1', ...CONDITION };

export const alertRuleCreated = eventBuilder<AlertRuleCreated>('AlertRuleCreated', {
  ...rule,
  name: 'slow answers',
  created_at: AT.toISOString(),
});

export const alertTriggered = eventBuilder<AlertTriggered>('AlertTriggered', {
  ...rule,
  value: 1800,
  calls: 40,
  triggered_at: LATER.toISOString(),
});

export const alertResolved = eventBuilder<AlertResolved>('AlertResolved', {
  ...rule,
  value: 600,
  calls: 40,
  resolved_at: '2026-11-21T12:00:00.000Z',
});

export const alertRuleDeleted = eventBuilder<AlertRuleDeleted>('AlertRuleDeleted', {
  rule_id: 'ar_1',
  account_id: 'acct_1',
  deleted_at: '2026-11-21T13:00:00.000Z',
});
