import { StoredEvent } from '../../infrastructure/event-store/event-store.port';
import { WriteOp } from '../../infrastructure/read-model/read-model-store.port';
import { isApiKeyEvent } from '../domain/api-key.decider';
import { Projection } from '../../eventsourcing/projection';

/**
 * Two views of a key: by id for the admin listing, and by hash for the authentication of every
 * request (one HGETALL). Only the SHA-256 of a key is ever stored.
 */
export const apiKeyKeys = {
  byId: (id: string) => `apikey:${id}`,
  byHash: (hash: string) => `apikey-hash:${hash}`,
  ofAccount: (accountId: string | null) => `apikeys:account:${accountId ?? '-'}`,
};

export const apiKeysProjection: Projection = {
  name: 'api-keys',
  types: isApiKeyEvent.types,
  apply(event: StoredEvent): WriteOp[] {
    if (!isApiKeyEvent(event)) return [];
    switch (event.type) {
      case 'ApiKeyIssued': {
        const d = event.data;
        const common = {
          account_id: d.account_id ?? '',
          scopes: d.scopes.join(','),
          environment: d.environment,
          expires_at: d.expires_at ?? '',
        };
        return [
          {
            op: 'hset',
            key: apiKeyKeys.byId(d.key_id),
            fields: {
              id: d.key_id,
              name: d.name,
              key_hint: d.key_hint,
              created_at: d.created_at,
              revoked_at: '',
              ...common,
            },
          },
          { op: 'hset', key: apiKeyKeys.byHash(d.key_hash), fields: { key_id: d.key_id, revoked: '0', ...common } },
          { op: 'zadd', key: apiKeyKeys.ofAccount(d.account_id), score: Date.parse(d.created_at), member: d.key_id },
        ];
      }
      case 'ApiKeyRevoked': {
        const d = event.data;
        return [
          { op: 'hset', key: apiKeyKeys.byId(d.key_id), fields: { revoked_at: d.revoked_at } },
          { op: 'hset', key: apiKeyKeys.byHash(d.key_hash), fields: { revoked: '1' } },
        ];
      }
      default:
        return [];
    }
  },
};
