import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { KEY_USAGE_STORE, KeyUsageStore } from '../../rate-limiting/rate-limiter.port';
import { READ_MODEL_STORE, ReadModelStore } from '../../infrastructure/read-model/read-model-store.port';
import { apiKeyKeys } from '../projections/api-keys.projection';
import type { Scope } from '../../shared/api-key-scopes';
import { ApiKeyListItemDto } from '../http/api-key-list.dto';
import { byCreation, CursorPagination, readCursorIds } from '../../platform/http/cursor';

export class ListApiKeys {
  constructor(
    readonly accountId: string | null,
    readonly limit: number,
    readonly offset: number,
    readonly cursor?: string,
  ) {}
}

export interface ApiKeyList {
  api_keys: ApiKeyListItemDto[];
  pagination: CursorPagination;
}

@QueryHandler(ListApiKeys)
export class ListApiKeysHandler implements IQueryHandler<ListApiKeys, ApiKeyList> {
  constructor(
    @Inject(READ_MODEL_STORE) private readonly store: ReadModelStore,
    @Inject(KEY_USAGE_STORE) private readonly usage: KeyUsageStore,
  ) {}

  /** Newest first, by offset or by cursor (constant cost at any depth, stable while keys are issued). */
  async execute({ accountId, limit, offset, cursor }: ListApiKeys): Promise<ApiKeyList> {
    const { views, pagination } = await readCursorIds(
      this.store,
      { index: apiKeyKeys.ofAccount(accountId), filters: [accountId ?? undefined] },
      { limit, offset, cursor, order: 'desc' },
      (ids) => this.items(ids),
      byCreation,
    );
    return { api_keys: views, pagination };
  }

  private async items(ids: string[]): Promise<ApiKeyListItemDto[]> {
    const [records, usage] = await Promise.all([
      Promise.all(ids.map((id) => this.store.hgetall(apiKeyKeys.byId(id)))),
      this.usage.get(ids),
    ]);
    return records
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
  }
}
