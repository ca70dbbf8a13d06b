import { StoredEvent } from '../../infrastructure/event-store/event-store.port';
import { WriteOp } from '../../infrastructure/read-model/read-model-store.port';
import { isAlertRuleEvent } from '../domain/alert-rule.events';
import { Projection, ProjectionView } from '../../eventsourcing/projection';
import { AlertRuleView, alertRuleViewCodec, webhookKeys } from './webhook-views';

/** Rule views per account, and the list of every rule the evaluator walks. */
export const alertRulesProjection: Projection = {
  name: 'alert-rules',
  types: isAlertRuleEvent.types,
  async apply(event: StoredEvent, view: ProjectionView): Promise<WriteOp[]> {
    if (!isAlertRuleEvent(event)) return [];
    switch (event.type) {
      case 'AlertRuleCreated': {
        const d = event.data;
        const rule: AlertRuleView = {
          id: d.rule_id,
          account_id: d.account_id,
          name: d.name,
          metric: d.metric,
          comparison: d.comparison,
          threshold: d.threshold,
          window_minutes: d.window_minutes,
          trunk_id: d.trunk_id,
          state: 'ok',
          last_value: null,
          triggered_at: null,
          resolved_at: null,
          created_at: d.created_at,
        };
        const score = Date.parse(d.created_at);
        return [
          alertRuleViewCodec.set(webhookKeys.alertRule(d.rule_id), rule),
          { op: 'zadd', key: webhookKeys.alertRulesOf(d.account_id), score, member: d.rule_id },
          { op: 'zadd', key: webhookKeys.allAlertRules, score, member: d.rule_id },
        ];
      }
      case 'AlertTriggered':
      case 'AlertResolved': {
        const rule = alertRuleViewCodec.decode(await view.get(webhookKeys.alertRule(event.data.rule_id)));
        if (!rule) return [];
        const next: AlertRuleView =
          event.type === 'AlertTriggered'
            ? { ...rule, state: 'triggered', last_value: event.data.value, triggered_at: event.data.triggered_at }
            : { ...rule, state: 'ok', last_value: event.data.value, resolved_at: event.data.resolved_at };
        return [alertRuleViewCodec.set(webhookKeys.alertRule(rule.id), next)];
      }
      case 'AlertRuleDeleted':
        return [
          { op: 'del', key: webhookKeys.alertRule(event.data.rule_id) },
          { op: 'zrem', key: webhookKeys.alertRulesOf(event.data.account_id), member: event.data.rule_id },
          { op: 'zrem', key: webhookKeys.allAlertRules, member: event.data.rule_id },
        ];
      default:
        return [];
    }
  },
};
