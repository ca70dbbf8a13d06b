import { ReadModelStore } from '../../../src/infrastructure/read-model/read-model-store.port';
import { alertRulesProjection } from '../../../src/webhooks/projections/alert-rules.projection';
import { AlertRuleView, webhookKeys } from '../../../src/webhooks/projections/webhook-views';
import { AlertRuleDto } from '../../../src/webhooks/read/alert-rule.dto';
import {
  GetAlertRule,
  GetAlertRuleHandler,
  ListAlertRules,
  ListAlertRulesHandler,
} from '../../../src/webhooks/read/webhook.queries';
import {
  alertResolved,
  alertRuleCreated,
  alertRuleDeleted,
  alertTriggered,
  CONDITION,
} from '../../support/alert-rule-builders';
import { found, projectionSpec, SpecEvent } from '../../support/projection-spec';
import { AT, LATER, trunkCreated } from '../../support/trunk-builders';

/** What GET /alert-rules(/ar_1) answer for acct_1, and the rules the evaluator walks (every account's). */
async function alertRules(store: ReadModelStore) {
  const { alert_rules } = await new ListAlertRulesHandler(store).execute(new ListAlertRules('acct_1', 50, 0));
  const walked = await store.page(webhookKeys.allAlertRules, webhookKeys.alertRulePrefix, 0, 100, 'asc');
  return {
    ar_1: await found(new GetAlertRuleHandler(store).execute(new GetAlertRule('acct_1', 'ar_1'))),
    listed: alert_rules.map((rule) => rule.id),
    evaluated: walked.values.flatMap((raw) => (raw ? [(JSON.parse(raw) as AlertRuleView).id] : [])),
  };
}

const spec = projectionSpec(alertRulesProjection, alertRules);

const RULE: AlertRuleDto = {
  id: 'ar_1',
  name: 'slow answers',
  ...CONDITION,
  state: 'ok',
  last_value: null,
  triggered_at: null,
  resolved_at: null,
  created_at: AT.toISOString(),
};
const seen = (overrides: Partial<AlertRuleDto> = {}) => ({
  ar_1: { ...RULE, ...overrides },
  listed: ['ar_1'],
  evaluated: ['ar_1'],
});

describe('alert rules projection', () => {
  it('serves a created rule as ok, lists it and has the evaluator walk it', async () => {
    await spec.given().when(alertRuleCreated()).then(seen());
  });

  it('serves a triggered rule with the value that triggered it, and when', async () => {
    await spec
      .given(alertRuleCreated())
      .when(alertTriggered())
      .then(seen({ state: 'triggered', last_value: 1800, triggered_at: LATER.toISOString() }));
  });

  it('serves a resolved rule as ok again, keeping when it last triggered', async () => {
    await spec
      .given(alertRuleCreated(), alertTriggered())
      .when(alertResolved())
      .then(
        seen({
          state: 'ok',
          last_value: 600,
          triggered_at: LATER.toISOString(),
          resolved_at: '2026-11-21T12:00:00.000Z',
        }),
      );
  });

  it("removes a deleted rule from its account's list and from the evaluator's walk", async () => {
    await spec
      .given(alertRuleCreated(), alertTriggered())
      .when(alertRuleDeleted())
      .then({ ar_1: null, listed: [], evaluated: [] });
  });

  it('writes nothing for an evaluation of a rule deleted meanwhile', async () => {
    await spec
      .given(alertRuleCreated(), alertRuleDeleted())
      .when(alertTriggered(), alertResolved())
      .thenNothingChanged();
  });

  it("has the evaluator walk every account's rules while each account lists its own", async () => {
    const theirs = alertRuleCreated({ rule_id: 'ar_2', account_id: 'acct_2', created_at: LATER.toISOString() });
    await spec
      .given(alertRuleCreated())
      .when(theirs)
      .then({ ...seen(), evaluated: ['ar_1', 'ar_2'] });
  });

  it("leaves this account's rule alone when another account's rule triggers and resolves", async () => {
    const theirs = { rule_id: 'ar_2', account_id: 'acct_2' };
    await spec
      .given(alertRuleCreated(), alertRuleCreated(theirs))
      .when(alertTriggered(theirs), alertResolved(theirs))
      .thenNothingChanged();
  });

  it('ignores events that are not about alert rules', async () => {
    await spec.given(alertRuleCreated()).when(trunkCreated()).thenNothingChanged();
  });

  describe('replaying the last event changes nothing', () => {
    const cases: [string, SpecEvent[]][] = [
      ['a creation', [alertRuleCreated()]],
      ['a trigger', [alertRuleCreated(), alertTriggered()]],
      ['a resolution', [alertRuleCreated(), alertTriggered(), alertResolved()]],
      ['a deletion', [alertRuleCreated(), alertRuleDeleted()]],
    ];
    it.each(cases)('%s', async (_name, history) => {
      await spec
        .given(...history)
        .when(history[history.length - 1])
        .thenNothingChanged();
    });
  });
});
