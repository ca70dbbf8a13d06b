import { apiKeysProjection } from '../../../src/api-keys/projections/api-keys.projection';
import { ApiKeyNames } from '../../../src/api-keys/read/api-key-names';
import { apiKeyIssued, apiKeyRevoked } from '../../support/api-key-builders';
import { projectionSpec } from '../../support/projection-spec';

/** The names a trunk history of acct_1 shows for these actors (actor_name of GET /trunks/{id}/events). */
const ACTORS = ['key_1', 'key_2', 'key_admin', 'key_gone', 'system:trunk-health'];
const namesSeen = projectionSpec(apiKeysProjection, async (store) =>
  Object.fromEntries(await new ApiKeyNames(store).namesOf('acct_1', ACTORS)),
);

describe("api key names for a trunk's history", () => {
  it("names the account's own keys, revoked ones included, and nothing else", async () => {
    await namesSeen
      .given(
        apiKeyIssued({ key_id: 'key_1', name: 'Billing sync' }),
        apiKeyIssued({ key_id: 'key_2', account_id: 'acct_2', name: 'Their secret project', key_hash: 'b'.repeat(64) }),
        apiKeyIssued({ key_id: 'key_admin', account_id: null, name: 'ops admin', key_hash: 'c'.repeat(64) }),
      )
      .when(apiKeyRevoked({ key_id: 'key_1' }))
      .then({ key_1: 'Billing sync' });
  });

  it('names no key of another account, even one that acted', async () => {
    await namesSeen
      .given()
      .when(apiKeyIssued({ key_id: 'key_2', account_id: 'acct_2', name: 'Their secret project' }))
      .then({});
  });
});
