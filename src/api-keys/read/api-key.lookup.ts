import { Inject, Injectable } from '@nestjs/common';
import { READ_MODEL_STORE, ReadModelStore } from '../../infrastructure/read-model/read-model-store.port';
import { apiKeyKeys } from '../projections/api-keys.projection';
import type { Environment, Scope } from '../../shared/api-key-scopes';

export interface KeyCredential {
  keyId: string;
  accountId: string | null;
  scopes: Scope[];
  environment: Environment;
  expiresAt: Date | null;
  revoked: boolean;
}

/** The per-request key lookup: one HGETALL by hash, no per-instance cache to go stale. */
@Injectable()
export class ApiKeyLookup {
  constructor(@Inject(READ_MODEL_STORE) private readonly store: ReadModelStore) {}

  async byHash(hash: string): Promise<KeyCredential | null> {
    return credentialFrom(await this.store.hgetall(apiKeyKeys.byHash(hash)));
  }
}

/** The read model's hash of a key, as the gate uses it; null when there is no such key. */
export function credentialFrom(record: Record<string, string>): KeyCredential | null {
  if (!record.key_id) return null;
  return {
    keyId: record.key_id,
    accountId: record.account_id || null,
    scopes: (record.scopes ? record.scopes.split(',') : []) as Scope[],
    environment: record.environment as Environment,
    expiresAt: record.expires_at ? new Date(record.expires_at) : null,
    revoked: record.revoked === '1',
  };
}
