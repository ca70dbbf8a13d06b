import { Decider } from '../../shared/decider';
import { DomainError } from '../../shared/domain-error';
import { eventGuard } from '../../shared/event-guard';
import { Environment, Scope } from '../../shared/api-key-scopes';

export type ApiKeyCommand =
  | {
      type: 'IssueApiKey';
      data: {
        keyId: string;
        accountId: string | null;
        name: string;
        scopes: Scope[];
        environment: Environment;
        /** SHA-256 of the key: the key itself never reaches an event. */
        keyHash: string;
        /** The last 4 characters, so people can tell keys apart in lists. */
        keyHint: string;
        expiresAt: Date | null;
        at: Date;
      };
    }
  | { type: 'RevokeApiKey'; data: { keyId: string; at: Date } };

export type ApiKeyIssued = {
  type: 'ApiKeyIssued';
  data: {
    key_id: string;
    account_id: string | null;
    name: string;
    scopes: Scope[];
    environment: Environment;
    key_hash: string;
    key_hint: string;
    expires_at: string | null;
    created_at: string;
  };
};

export type ApiKeyRevoked = {
  type: 'ApiKeyRevoked';
  /** Carries the hash so projections stay pure functions of the event. */
  data: { key_id: string; account_id: string | null; key_hash: string; revoked_at: string };
};

export type ApiKeyEvent = ApiKeyIssued | ApiKeyRevoked;

export const isApiKeyEvent = eventGuard<ApiKeyEvent>({ ApiKeyIssued: true, ApiKeyRevoked: true });

export type ApiKeyState =
  { status: 'none' } | { status: 'active' | 'revoked'; keyId: string; accountId: string | null; keyHash: string };

export const apiKeyDecider: Decider<ApiKeyCommand, ApiKeyEvent, ApiKeyState> = {
  initialState: () => ({ status: 'none' }),

  decide(command, state) {
    switch (command.type) {
      case 'IssueApiKey': {
        if (state.status !== 'none') throw new DomainError('conflict', `API key ${command.data.keyId} already exists`);
        const { data } = command;
        if (data.scopes.length === 0)
          throw new DomainError('missing_required_field', 'scopes must name at least one scope', {
            param: 'scopes',
            reason: 'too_short',
          });
        if (data.expiresAt && data.expiresAt.getTime() <= data.at.getTime()) {
          throw new DomainError('missing_required_field', 'expires_at must be in the future', {
            param: 'expires_at',
            reason: 'out_of_range',
          });
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
        if (state.status === 'none') throw new DomainError('not_found', `API key ${command.data.keyId} not found`);
        if (state.status === 'revoked') return [];
        return [
          {
            type: 'ApiKeyRevoked',
            data: {
              key_id: state.keyId,
              account_id: state.accountId,
              key_hash: state.keyHash,
              revoked_at: command.data.at.toISOString(),
            },
          },
        ];
    }
  },

  evolve(state, event) {
    switch (event.type) {
      case 'ApiKeyIssued':
        return {
          status: 'active',
          keyId: event.data.key_id,
          accountId: event.data.account_id,
          keyHash: event.data.key_hash,
        };
      case 'ApiKeyRevoked':
        return state.status === 'none' ? state : { ...state, status: 'revoked' };
    }
  },
};

export const apiKeyStream = (keyId: string): string => `apikey-${keyId}`;
