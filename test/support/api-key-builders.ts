import { ApiKeyIssued, ApiKeyRevoked } from '../../src/api-keys/domain/api-key.decider';
import { eventBuilder } from './event-builder';

export const KEY_HASH = 'a'.repeat(64);

export const apiKeyIssued = eventBuilder<ApiKeyIssued>('ApiKeyIssued', {
  key_id: 'key_1',
  account_id: 'acct_1',
  name: 'ci',
  scopes: ['full'],
  environment: 'live',
  key_hash: KEY_HASH,
  key_hint: 'abcd',
  expires_at: null,
  created_at: '2026-11-21T10:00:00.000Z',
});

export const apiKeyRevoked = eventBuilder<ApiKeyRevoked>('ApiKeyRevoked', {
  key_id: 'key_1',
  account_id: 'acct_1',
  key_hash: KEY_HASH,
  revoked_at: '2026-11-21T11:00:00.000Z',
});
