import { AlertRuleCommand, alertRuleDecider } from '../../../src/webhooks/domain/alert-rule.decider';
import { AlertCondition, AlertRuleEvent } from '../../../src/webhooks/domain/alert-rule.events';
import { deciderSpec } from '../../support/decider-spec';

const spec = deciderSpec(alertRuleDecider);
const AT = new Date('2026-11-21T10:00:00.000Z');
const condition: AlertCondition = {
  metric: 'p95_latency_ms',
  comparison: 'gt',
  threshold: 1000,
  window_minutes: 5,
  trunk_id: null,
};
const created: AlertRuleEvent = {
  type: 'AlertRuleCreated',
  data: { rule_id: 'ar_1', account_id: 'acct_1', name: 'slow', ...condition, created_at: AT.toISOString() },
};
const evaluate = (value: number | null, calls = 10): AlertRuleCommand => ({
  type: 'EvaluateAlertRule',
  data: { value, calls, at: AT },
});
const triggered = (value: number): AlertRuleEvent => ({
  type: 'AlertTriggered',
  data: { rule_id: 'ar_1', account_id: 'acct_1', ...condition, value, calls: 10, triggered_at: AT.toISOString() },
});
const resolved = (value: number): AlertRuleEvent => ({
  type: 'AlertResolved',
  data: { rule_id: 'ar_1', account_id: 'acct_1', ...condition, value, calls: 10, resolved_at: AT.toISOString() },
});
const deleted: AlertRuleEvent = {
  type: 'AlertRuleDeleted',
  data: { rule_id: 'ar_1', account_id: 'acct_1', deleted_at: AT.toISOString() },
};

describe('alert rule decider', () => {
  it('creates a rule', () => {
    spec
      .given([])
      .when({ type: 'CreateAlertRule', data: { ruleId: 'ar_1', accountId: 'acct_1', name: 'slow', condition, at: AT } })
      .then([created]);
  });

  it('triggers once when the condition starts to hold', () => {
    spec
      .given([created])
      .when(evaluate(1500))
      .then([triggered(1500)]);
    spec
      .given([created, triggered(1500)])
      .when(evaluate(1800))
      .then([]);
  });

  it('resolves once when the condition stops holding', () => {
    spec
      .given([created, triggered(1500)])
      .when(evaluate(400))
      .then([resolved(400)]);
    spec
      .given([created, triggered(1500), resolved(400)])
      .when(evaluate(300))
      .then([]);
  });

  it('stays quiet while the condition does not hold, and on the threshold itself for gt', () => {
    spec.given([created]).when(evaluate(1000)).then([]);
  });

  it('judges nothing on a window without calls', () => {
    spec.given([created]).when(evaluate(null, 0)).then([]);
    spec
      .given([created, triggered(1500)])
      .when(evaluate(null, 0))
      .then([]);
  });

  it("does not evaluate a deleted rule; deleting twice or another account's rule is not found", () => {
    spec.given([created, deleted]).when(evaluate(5000)).then([]);
    spec
      .given([created, deleted])
      .when({ type: 'DeleteAlertRule', data: { accountId: 'acct_1', at: AT } })
      .thenThrows('not_found');
    spec
      .given([created])
      .when({ type: 'DeleteAlertRule', data: { accountId: 'acct_2', at: AT } })
      .thenThrows('not_found');
  });

  it('compares with lt/lte/gte as named', () => {
    const rule = (comparison: AlertCondition['comparison']): AlertRuleEvent =>
      ({ ...created, data: { ...created.data, metric: 'success_rate', comparison, threshold: 95 } }) as AlertRuleEvent;
    expect(
      alertRuleDecider.decide(
        evaluate(95),
        [rule('lt')].reduce(alertRuleDecider.evolve, alertRuleDecider.initialState()),
      ),
    ).toEqual([]);
    expect(
      alertRuleDecider.decide(
        evaluate(95),
        [rule('lte')].reduce(alertRuleDecider.evolve, alertRuleDecider.initialState()),
      ),
    ).toHaveLength(1);
    expect(
      alertRuleDecider.decide(
        evaluate(95),
        [rule('gte')].reduce(alertRuleDecider.evolve, alertRuleDecider.initialState()),
      ),
    ).toHaveLength(1);
  });
});
