import { MemoryKeyUsageStore } from '../../../src/rate-limiting/memory.key-usage-store';
import { ReadModelStore } from '../../../src/infrastructure/read-model/read-model-store.port';
import { apiKeysProjection } from '../../../src/api-keys/projections/api-keys.projection';
import { ApiKeyLookup, KeyCredential } from '../../../src/api-keys/read/api-key.lookup';
import { ApiKeyListItemDto } from '../../../src/api-keys/http/api-key-list.dto';
import { ListApiKeys, ListApiKeysHandler } from '../../../src/api-keys/read/api-keys.queries';
import { apiKeyIssued, apiKeyRevoked, KEY_HASH } from '../../support/api-key-builders';
import { projectionSpec } from '../../support/projection-spec';
import { trunkCreated } from '../../support/trunk-builders';

/** What the request gate finds for a hash, and what GET /api-keys lists for an account (null: the admin keys). */
const keysSeen =
  (accountId: string | null = 'acct_1', hash = KEY_HASH) =>
  async (store: ReadModelStore) => {
    const list = new ListApiKeysHandler(store, new MemoryKeyUsageStore());
    const { api_keys, pagination } = await list.execute(new ListApiKeys(accountId, 50, 0));
    return { gate: await new ApiKeyLookup(store).byHash(hash), listed: api_keys, total: pagination.total };
  };

const spec = projectionSpec(apiKeysProjection, keysSeen());

const credential = (overrides: Partial<KeyCredential> = {}): KeyCredential => ({
  keyId: 'key_1',
  accountId: 'acct_1',
  scopes: ['full'],
  environment: 'live',
  expiresAt: null,
  revoked: false,
  ...overrides,
});
const listed = (overrides: Partial<ApiKeyListItemDto> = {}): ApiKeyListItemDto => ({
  id: 'key_1',
  name: 'ci',
  account_id: 'acct_1',
  scopes: ['full'],
  environment: 'live',
  key_hint: 'abcd',
  created_at: '2026-11-21T10:00:00.000Z',
  expires_at: null,
  revoked_at: null,
  last_used_at: null,
  request_count: 0,
  error_count: 0,
  ...overrides,
});

describe('api keys projection', () => {
  it('lets an issued key through the gate by its hash, with its scopes and environment', async () => {
    await spec
      .given()
      .when(apiKeyIssued())
      .then({ gate: credential(), listed: [listed()], total: 1 });
  });

  it('gives the gate the expiry of a key that expires', async () => {
    const expiresAt = '2027-01-01T00:00:00.000Z';
    await spec
      .given()
      .when(apiKeyIssued({ scopes: ['read', 'ingest'], environment: 'test', expires_at: expiresAt }))
      .then({
        gate: credential({ scopes: ['read', 'ingest'], environment: 'test', expiresAt: new Date(expiresAt) }),
        listed: [listed({ scopes: ['read', 'ingest'], environment: 'test', expires_at: expiresAt })],
        total: 1,
      });
  });

  it('lists an admin key (no account) among the admin keys, not under an account', async () => {
    const admin = apiKeyIssued({ account_id: null, scopes: ['admin'] });
    await projectionSpec(apiKeysProjection, keysSeen(null))
      .given()
      .when(admin)
      .then({
        gate: credential({ accountId: null, scopes: ['admin'] }),
        listed: [listed({ account_id: null, scopes: ['admin'] })],
        total: 1,
      });
    await spec
      .given()
      .when(admin)
      .then({ gate: credential({ accountId: null, scopes: ['admin'] }), listed: [], total: 0 });
  });

  it('lists keys newest first', async () => {
    const older = apiKeyIssued({ key_id: 'key_0', key_hash: 'b'.repeat(64), created_at: '2026-11-20T10:00:00.000Z' });
    await spec
      .given(older)
      .when(apiKeyIssued())
      .then({
        gate: credential(),
        listed: [listed(), listed({ id: 'key_0', created_at: '2026-11-20T10:00:00.000Z' })],
        total: 2,
      });
  });

  it('marks a revoked key revoked at the gate and lists when it was revoked', async () => {
    await spec
      .given(apiKeyIssued())
      .when(apiKeyRevoked())
      .then({
        gate: credential({ revoked: true }),
        listed: [listed({ revoked_at: '2026-11-21T11:00:00.000Z' })],
        total: 1,
      });
  });

  it('leaves the other keys alone when one is revoked', async () => {
    const other = { key_id: 'key_2', key_hash: 'c'.repeat(64) };
    const later = '2026-11-21T10:30:00.000Z';
    await spec
      .given(apiKeyIssued(), apiKeyIssued({ ...other, created_at: later }))
      .when(apiKeyRevoked(other))
      .then({
        gate: credential(),
        listed: [listed({ id: 'key_2', created_at: later, revoked_at: '2026-11-21T11:00:00.000Z' }), listed()],
        total: 2,
      });
  });

  it("does not list another account's key under this account", async () => {
    const theirs = { key_id: 'key_2', account_id: 'acct_2', key_hash: 'c'.repeat(64) };
    await spec.given(apiKeyIssued()).when(apiKeyIssued(theirs), apiKeyRevoked(theirs)).thenNothingChanged();
  });

  it('replaying an issue or a revocation changes nothing', async () => {
    await spec.given(apiKeyIssued()).when(apiKeyIssued()).thenNothingChanged();
    await spec.given(apiKeyIssued(), apiKeyRevoked()).when(apiKeyRevoked()).thenNothingChanged();
  });

  it('ignores events that are not about keys', async () => {
    await spec.given(apiKeyIssued()).when(trunkCreated()).thenNothingChanged();
  });
});
