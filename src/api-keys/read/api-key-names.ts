import { Inject, Injectable } from '@nestjs/common';
import { READ_MODEL_STORE, ReadModelStore } from '../../infrastructure/read-model/read-model-store.port';
import { apiKeyKeys } from '../projections/api-keys.projection';

/**
 * Key names for the histories that show who acted (the trunks' ActorNames port, bound in
 * app.module.ts): one read of each distinct key's record in the api-keys read model. Only the
 * account's own keys are named; a key of another account or of none stays a bare id.
 */
@Injectable()
export class ApiKeyNames {
  constructor(@Inject(READ_MODEL_STORE) private readonly store: ReadModelStore) {}

  async namesOf(accountId: string, keyIds: readonly string[]): Promise<Map<string, string>> {
    const ids = [...new Set(keyIds)].filter((id) => id.startsWith('key_'));
    const records = await Promise.all(ids.map((id) => this.store.hgetall(apiKeyKeys.byId(id))));
    return new Map(
      records.filter((r) => r.id && r.account_id && r.account_id === accountId).map((r) => [r.id, r.name]),
    );
  }
}
