import { trunkDecider, TrunkCommand } from '../../../src/trunks/domain/trunk.decider';
import { TrunkHealthChanged } from '../../../src/trunks/domain/trunk.events';
import { deciderSpec } from '../../support/decider-spec';
import { deactivated, LATER, trunkCreated, trunkDeleted, trunkUpdated } from '../../support/trunk-builders';

const spec = deciderSpec(trunkDecider);
const FAILED = ['call_1', 'call_2', 'call_3', 'call_4', 'call_5'];
const report = (healthy: boolean, accountId = 'acct_1'): TrunkCommand => ({
  type: 'ReportTrunkHealth',
  data: {
    accountId,
    healthy,
    reason: healthy ? 'call call_6 was answered' : 'the last 5 calls failed (agent_unreachable)',
    callIds: healthy ? ['call_6'] : FAILED,
    at: LATER,
  },
});
const changed = (status: 'error' | 'active'): TrunkHealthChanged => ({
  type: 'TrunkHealthChanged',
  data: {
    trunk_id: 'conn_1',
    account_id: 'acct_1',
    status,
    reason: status === 'active' ? 'call call_6 was answered' : 'the last 5 calls failed (agent_unreachable)',
    call_ids: status === 'active' ? ['call_6'] : FAILED,
    changed_at: LATER.toISOString(),
  },
});

describe('trunk decider: health', () => {
  it('puts an active trunk in error when its calls fail', () => {
    spec
      .given([trunkCreated()])
      .when(report(false))
      .then([changed('error')]);
  });

  it('brings a trunk in error back to active when a call is answered', () => {
    spec
      .given([trunkCreated(), changed('error')])
      .when(report(true))
      .then([changed('active')]);
  });

  it('records nothing for a verdict that changes nothing', () => {
    spec.given([trunkCreated()]).when(report(true)).then([]);
    spec
      .given([trunkCreated(), changed('error')])
      .when(report(false))
      .then([]);
  });

  it('leaves an inactive trunk as its operator set it, failing or healthy', () => {
    spec.given([trunkCreated(), deactivated()]).when(report(false)).then([]);
    spec.given([trunkCreated(), deactivated()]).when(report(true)).then([]);
  });

  it("records nothing for a deleted trunk, a missing one, or another account's", () => {
    spec.given([trunkCreated(), trunkDeleted()]).when(report(false)).then([]);
    spec.given([]).when(report(false)).then([]);
    spec.given([trunkCreated()]).when(report(false, 'acct_2')).then([]);
  });

  it('folds the status: error after the failures, active after the recovery, inactive by PATCH from error', () => {
    const fold = (history: Parameters<typeof trunkDecider.evolve>[1][]) =>
      history.reduce(trunkDecider.evolve, trunkDecider.initialState()).status;
    expect(fold([trunkCreated(), changed('error')])).toBe('error');
    expect(fold([trunkCreated(), changed('error'), changed('active')])).toBe('active');
    expect(fold([trunkCreated(), changed('error'), trunkUpdated({ status: 'inactive' })])).toBe('inactive');
    expect(fold([trunkCreated(), trunkDeleted(), changed('active')])).toBe('deleted');
  });

  it('lets an operator set an error trunk active or inactive by PATCH', () => {
    const patch = (status: 'active' | 'inactive'): TrunkCommand => ({
      type: 'UpdateTrunk',
      data: { accountId: 'acct_1', changes: { status }, at: LATER },
    });
    spec
      .given([trunkCreated(), changed('error')])
      .when(patch('active'))
      .then([trunkUpdated({ status: 'active' })]);
  });
});
