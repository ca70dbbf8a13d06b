import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { KEY_USAGE_STORE, KeyUsageStore } from '../../rate-limiting/rate-limiter.port';
import { READ_MODEL_STORE, ReadModelStore } from '../../infrastructure/read-model/read-model-store.port';
import { apiKeyKeys } from '../projections/api-keys.projection';
import type { Scope } from '../../shared/api-key-scopes';
import { ApiKeyListItemDto } from '../http/api-key-list.dto';

export class ListApiKeys {
  constructor(
    readonly accountId: string | null,
    readonly limit: number,
    readonly offset: number,
  ) {}
}

export interface ApiKeyList {
  api_keys: ApiKeyListItemDto[];
  pagination: { limit: number; offset: number; total: number };
}

@QueryHandler(ListApiKeys)
export class ListApiKeysHandler implements IQueryHandler<ListApiKeys, ApiKeyList> {
  constructor(
    @Inject(READ_MODEL_STORE) private readonly store: ReadModelStore,
    @Inject(KEY_USAGE_STORE) private readonly usage: KeyUsageStore,
  ) {}

  async execute({ accountId, limit, offset }: ListApiKeys): Promise<ApiKeyList> {
    const index = apiKeyKeys.ofAccount(accountId);
    const [total, ids] = await Promise.all([this.store.zcard(index), this.store.zrange(index, offset, limit, 'desc')]);
    const [records, usage] = await Promise.all([
      Promise.all(ids.map((id) => this.store.hgetall(apiKeyKeys.byId(id)))),
      this.usage.get(ids),
    ]);
    const api_keys = records
      .filter((r) => r.id)
      .map((r): ApiKeyListItemDto => {
        const used = usage.get(r.id);
        return {
          id: r.id,
          name: r.name,
          account_id: r.account_id || null,
          scopes: r.scopes.split(',') as Scope[],
          environment: r.environment as 'live' | 'test',
          key_hint: r.key_hint,
          created_at: r.created_at,
          expires_at: r.expires_at || null,
          revoked_at: r.revoked_at || null,
          last_used_at: used?.lastUsedAt?.toISOString() ?? null,
          request_count: used?.requestCount ?? 0,
          error_count: used?.errorCount ?? 0,
        };
      });
    return { api_keys, pagination: { limit, offset, total } };
  }
}
