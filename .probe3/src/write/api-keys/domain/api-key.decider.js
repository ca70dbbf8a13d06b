"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.apiKeyStream = exports.apiKeyDecider = exports.SCOPES = void 0;
const domain_error_1 = require("../../../shared/domain-error");
exports.SCOPES = ['full', 'read', 'ingest', 'admin'];
exports.apiKeyDecider = {
    initialState: () => ({ status: 'none' }),
    decide(command, state) {
        switch (command.type) {
            case 'IssueApiKey': {
                if (state.status !== 'none')
                    throw new domain_error_1.DomainError('conflict', `API key ${command.data.keyId} already exists`);
                const { data } = command;
                if (data.scopes.length === 0)
                    throw new domain_error_1.DomainError('missing_required_field', 'scopes must name at least one scope', { param: 'scopes' });
                if (data.expiresAt && data.expiresAt.getTime() <= data.at.getTime()) {
                    throw new domain_error_1.DomainError('missing_required_field', 'expires_at must be in the future', { param: 'expires_at' });
                }
                return [
                    {
                        type: 'ApiKeyIssued',
                        data: {
                            key_id: data.keyId,
                            account_id: data.accountId,
                            name: data.name,
                            scopes: [...new Set(data.scopes)],
                            environment: data.environment,
                            key_hash: data.keyHash,
                            key_hint: data.keyHint,
                            expires_at: data.expiresAt?.toISOString() ?? null,
                            created_at: data.at.toISOString(),
                        },
                    },
                ];
            }
            case 'RevokeApiKey':
                if (state.status === 'none')
                    throw new domain_error_1.DomainError('not_found', `API key ${command.data.keyId} not found`);
                if (state.status === 'revoked')
                    return [];
                return [
                    {
                        type: 'ApiKeyRevoked',
                        data: { key_id: state.keyId, account_id: state.accountId, key_hash: state.keyHash, revoked_at: command.data.at.toISOString() },
                    },
                ];
        }
    },
    evolve(state, event) {
        switch (event.type) {
            case 'ApiKeyIssued':
                return { status: 'active', keyId: event.data.key_id, accountId: event.data.account_id, keyHash: event.data.key_hash };
            case 'ApiKeyRevoked':
                return state.status === 'none' ? state : { ...state, status: 'revoked' };
        }
    },
};
const apiKeyStream = (keyId) => `apikey-${keyId}`;
exports.apiKeyStream = apiKeyStream;
//# sourceMappingURL=api-key.decider.js.map