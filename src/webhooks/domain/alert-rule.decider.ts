import { Decider } from '../../shared/decider';
import { DomainError } from '../../shared/domain-error';
import { AlertComparison, AlertCondition, AlertRuleEvent } from './alert-rule.events';

export type AlertRuleCommand =
  | {
      type: 'CreateAlertRule';
      data: { ruleId: string; accountId: string; name: string | null; condition: AlertCondition; at: Date };
    }
  | { type: 'DeleteAlertRule'; data: { accountId: string; at: Date } }
  /** value null: no calls in the window, nothing to judge: the state stays as it is. */
  | { type: 'EvaluateAlertRule'; data: { value: number | null; calls: number; at: Date } };

export type AlertRuleState =
  | { status: 'none' }
  | { status: 'deleted'; ruleId: string; accountId: string }
  | { status: 'live'; ruleId: string; accountId: string; condition: AlertCondition; firing: boolean };

export function holds(comparison: AlertComparison, value: number, threshold: number): boolean {
  switch (comparison) {
    case 'gt':
      return value > threshold;
    case 'gte':
      return value >= threshold;
    case 'lt':
      return value < threshold;
    case 'lte':
      return value <= threshold;
  }
}

/**
 * Events only on a change of state: alert.triggered once when the condition starts to hold,
 * alert.resolved once when it stops. Two evaluators deciding on the same revision cannot both
 * append (expected version), and the loser re-decides on the new state and appends nothing.
 */
export const alertRuleDecider: Decider<AlertRuleCommand, AlertRuleEvent, AlertRuleState> = {
  initialState: () => ({ status: 'none' }),

  decide(command, state) {
    switch (command.type) {
      case 'CreateAlertRule': {
        if (state.status !== 'none')
          throw new DomainError('conflict', `Alert rule ${command.data.ruleId} already exists`);
        const d = command.data;
        return [
          {
            type: 'AlertRuleCreated',
            data: {
              rule_id: d.ruleId,
              account_id: d.accountId,
              name: d.name,
              ...d.condition,
              created_at: d.at.toISOString(),
            },
          },
        ];
      }
      case 'DeleteAlertRule': {
        if (state.status !== 'live' || state.accountId !== command.data.accountId)
          throw new DomainError('not_found', 'Alert rule not found');
        return [
          {
            type: 'AlertRuleDeleted',
            data: { rule_id: state.ruleId, account_id: state.accountId, deleted_at: command.data.at.toISOString() },
          },
        ];
      }
      case 'EvaluateAlertRule': {
        const { value, calls, at } = command.data;
        if (state.status !== 'live' || value === null) return [];
        const now = holds(state.condition.comparison, value, state.condition.threshold);
        if (now === state.firing) return [];
        const base = { rule_id: state.ruleId, account_id: state.accountId, ...state.condition, value, calls };
        return now
          ? [{ type: 'AlertTriggered', data: { ...base, triggered_at: at.toISOString() } }]
          : [{ type: 'AlertResolved', data: { ...base, resolved_at: at.toISOString() } }];
      }
    }
  },

  evolve(state, event) {
    switch (event.type) {
      case 'AlertRuleCreated': {
        const { rule_id, account_id, metric, comparison, threshold, window_minutes, trunk_id } = event.data;
        return {
          status: 'live',
          ruleId: rule_id,
          accountId: account_id,
          condition: { metric, comparison, threshold, window_minutes, trunk_id },
          firing: false,
        };
      }
      case 'AlertTriggered':
        return state.status === 'live' ? { ...state, firing: true } : state;
      case 'AlertResolved':
        return state.status === 'live' ? { ...state, firing: false } : state;
      case 'AlertRuleDeleted':
        return state.status === 'live'
          ? { status: 'deleted', ruleId: state.ruleId, accountId: state.accountId }
          : state;
    }
  },
};

export const alertRuleStream = (ruleId: string): string => `alert-rule-${ruleId}`;
