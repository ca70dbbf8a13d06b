"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.apiKeysProjection = exports.apiKeyKeys = void 0;
/**
 * Two views of a key: by id for the admin listing, and by hash for the authentication of every
 * request (one HGETALL). Only the SHA-256 of a key is ever stored.
 */
exports.apiKeyKeys = {
    byId: (id) => `apikey:${id}`,
    byHash: (hash) => `apikey-hash:${hash}`,
    ofAccount: (accountId) => `apikeys:account:${accountId ?? '-'}`,
};
exports.apiKeysProjection = {
    name: 'api-keys',
    apply(stored) {
        const event = stored;
        switch (event.type) {
            case 'ApiKeyIssued': {
                const d = event.data;
                const common = { account_id: d.account_id ?? '', scopes: d.scopes.join(','), environment: d.environment, expires_at: d.expires_at ?? '' };
                return [
                    {
                        op: 'hset',
                        key: exports.apiKeyKeys.byId(d.key_id),
                        fields: { id: d.key_id, name: d.name, key_hint: d.key_hint, created_at: d.created_at, revoked_at: '', ...common },
                    },
                    { op: 'hset', key: exports.apiKeyKeys.byHash(d.key_hash), fields: { key_id: d.key_id, revoked: '0', ...common } },
                    { op: 'zadd', key: exports.apiKeyKeys.ofAccount(d.account_id), score: Date.parse(d.created_at), member: d.key_id },
                ];
            }
            case 'ApiKeyRevoked': {
                const d = event.data;
                return [
                    { op: 'hset', key: exports.apiKeyKeys.byId(d.key_id), fields: { revoked_at: d.revoked_at } },
                    { op: 'hset', key: exports.apiKeyKeys.byHash(d.key_hash), fields: { revoked: '1' } },
                ];
            }
            default:
                return [];
        }
    },
};
//# sourceMappingURL=api-keys.projection.js.map