import { apiKeyDecider, ApiKeyCommand, ApiKeyEvent } from '../../../src/api-keys/domain/api-key.decider';
import { deciderSpec } from '../../support/decider-spec';

const spec = deciderSpec(apiKeyDecider);
const at = new Date('2026-11-21T10:00:00.000Z');

function issue(overrides: Partial<Extract<ApiKeyCommand, { type: 'IssueApiKey' }>['data']> = {}): ApiKeyCommand {
  return {
    type: 'IssueApiKey',
    data: {
      keyId: 'key_1',
      accountId: 'acct_1',
      name: 'ci',
      scopes: ['full'],
      environment: 'live',
      keyHash: 'h'.repeat(64),
      keyHint: 'abcd',
      expiresAt: null,
      at,
      ...overrides,
    },
  };
}

const issued: ApiKeyEvent = {
  type: 'ApiKeyIssued',
  data: {
    key_id: 'key_1',
    account_id: 'acct_1',
    name: 'ci',
    scopes: ['full'],
    environment: 'live',
    key_hash: 'h'.repeat(64),
    key_hint: 'abcd',
    expires_at: null,
    created_at: at.toISOString(),
  },
};
const revoked: ApiKeyEvent = {
  type: 'ApiKeyRevoked',
  data: { key_id: 'key_1', account_id: 'acct_1', key_hash: 'h'.repeat(64), revoked_at: at.toISOString() },
};

describe('api key decider', () => {
  describe('IssueApiKey', () => {
    it('issues a key with its hash, never the key itself', () => {
      spec.given([]).when(issue()).then([issued]);
    });

    it('deduplicates repeated scopes', () => {
      const event = apiKeyDecider.decide(issue({ scopes: ['read', 'read', 'ingest'] }), apiKeyDecider.initialState());
      expect(event[0].type === 'ApiKeyIssued' && event[0].data.scopes).toEqual(['read', 'ingest']);
    });

    it('records the expiry instant', () => {
      const expiresAt = new Date('2027-01-01T00:00:00.000Z');
      const [event] = apiKeyDecider.decide(issue({ expiresAt }), apiKeyDecider.initialState());
      expect(event.type === 'ApiKeyIssued' && event.data.expires_at).toBe('2027-01-01T00:00:00.000Z');
    });

    it('rejects an expiry that is not in the future, naming expires_at', () => {
      spec
        .given([])
        .when(issue({ expiresAt: at }))
        .thenThrows('missing_required_field', 'expires_at');
    });

    it('rejects a key without scopes, naming scopes', () => {
      spec
        .given([])
        .when(issue({ scopes: [] }))
        .thenThrows('missing_required_field', 'scopes');
    });

    it('rejects issuing the same key id twice', () => {
      spec.given([issued]).when(issue()).thenThrows('conflict');
    });

    it('rejects issuing over a revoked key id', () => {
      spec.given([issued, revoked]).when(issue()).thenThrows('conflict');
    });
  });

  describe('RevokeApiKey', () => {
    it('revokes an active key, carrying its hash for the projections', () => {
      spec
        .given([issued])
        .when({ type: 'RevokeApiKey', data: { keyId: 'key_1', at } })
        .then([revoked]);
    });

    it('is idempotent on a revoked key: no new event', () => {
      spec
        .given([issued, revoked])
        .when({ type: 'RevokeApiKey', data: { keyId: 'key_1', at } })
        .then([]);
    });

    it('rejects revoking a key that does not exist with not_found', () => {
      spec
        .given([])
        .when({ type: 'RevokeApiKey', data: { keyId: 'key_1', at } })
        .thenThrows('not_found');
    });
  });
});
