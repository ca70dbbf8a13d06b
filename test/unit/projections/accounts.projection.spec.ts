import { ReadModelStore } from '../../../src/infrastructure/read-model/read-model-store.port';
import { accountsProjection } from '../../../src/accounts/projections/accounts.projection';
import {
  GetAccount,
  GetAccountHandler,
  ListAccounts,
  ListAccountsHandler,
} from '../../../src/accounts/read/accounts.queries';
import { accountCreated } from '../../support/account-builders';
import { found, projectionSpec } from '../../support/projection-spec';
import { trunkCreated } from '../../support/trunk-builders';

/** What GET /accounts and GET /accounts/{id} answer. */
async function accounts(store: ReadModelStore) {
  const { accounts: listed, pagination } = await new ListAccountsHandler(store).execute(new ListAccounts(50, 0));
  return {
    listed,
    total: pagination.total,
    acct_1: await found(new GetAccountHandler(store).execute(new GetAccount('acct_1'))),
  };
}

const spec = projectionSpec(accountsProjection, accounts);
const ACME = { id: 'acct_1', name: 'Acme Voice', created_at: '2026-11-21T10:00:00.000Z' };

describe('accounts projection', () => {
  it('lists a created account and serves it by id', async () => {
    await spec
      .given()
      .when(accountCreated())
      .then({ listed: [ACME], total: 1, acct_1: ACME });
  });

  it('lists accounts newest first', async () => {
    const older = accountCreated({ account_id: 'acct_0', name: 'Older', created_at: '2026-11-20T10:00:00.000Z' });
    await spec
      .given(older)
      .when(accountCreated())
      .then({
        listed: [ACME, { id: 'acct_0', name: 'Older', created_at: '2026-11-20T10:00:00.000Z' }],
        total: 2,
        acct_1: ACME,
      });
  });

  it('serves nothing for an account that was never created', async () => {
    await spec
      .given()
      .when(accountCreated({ account_id: 'acct_2' }))
      .then({ listed: [{ ...ACME, id: 'acct_2' }], total: 1, acct_1: null });
  });

  it('replaying a creation changes nothing', async () => {
    await spec.given(accountCreated()).when(accountCreated()).thenNothingChanged();
  });

  it('ignores events that are not about accounts', async () => {
    await spec.given(accountCreated()).when(trunkCreated()).thenNothingChanged();
  });
});
