import { accountDecider, AccountEvent } from '../../../src/accounts/domain/account.decider';
import { deciderSpec } from '../../support/decider-spec';

const spec = deciderSpec(accountDecider);
const at = new Date('2026-11-21T10:00:00.000Z');
const created: AccountEvent = {
  type: 'AccountCreated',
  data: { account_id: 'acct_1', name: 'Acme', created_at: at.toISOString() },
};

describe('account decider', () => {
  it('creates an account that does not exist yet', () => {
    spec
      .given([])
      .when({ type: 'CreateAccount', data: { accountId: 'acct_1', name: 'Acme', at } })
      .then([created]);
  });

  it('rejects creating an account twice with conflict', () => {
    spec
      .given([created])
      .when({ type: 'CreateAccount', data: { accountId: 'acct_1', name: 'Other', at } })
      .thenThrows('conflict');
  });

  it('folds the created event into an open account', () => {
    expect(accountDecider.evolve(accountDecider.initialState(), created)).toEqual({
      status: 'open',
      accountId: 'acct_1',
      name: 'Acme',
    });
  });
});
