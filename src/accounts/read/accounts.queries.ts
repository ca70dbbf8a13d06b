import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { ReadAheadResult, readHash } from '../../infrastructure/read-model/read-ahead';
import { READ_MODEL_STORE, ReadModelStore } from '../../infrastructure/read-model/read-model-store.port';
import { accountKeys } from '../projections/accounts.projection';
import { DomainError } from '../../shared/domain-error';
import { AccountDto } from '../contracts/account.dto';
import { byCreation, CursorPagination, readCursorIds } from '../../platform/http/cursor';

export class ListAccounts {
  constructor(
    readonly limit: number,
    readonly offset: number,
    readonly cursor?: string,
  ) {}
}
export class GetAccount {
  constructor(
    readonly accountId: string,
    readonly readAhead?: ReadAheadResult,
  ) {}
}

export interface AccountList {
  accounts: AccountDto[];
  pagination: CursorPagination;
}

const toDto = (h: Record<string, string>): AccountDto => ({ id: h.id, name: h.name, created_at: h.created_at });

/** The account as served from its read-model hash; null when there is none. */
export const accountFromRecord = (record: Record<string, string>): AccountDto | null =>
  record.id ? toDto(record) : null;

@QueryHandler(ListAccounts)
export class ListAccountsHandler implements IQueryHandler<ListAccounts, AccountList> {
  constructor(@Inject(READ_MODEL_STORE) private readonly store: ReadModelStore) {}

  /** Newest first, by offset or by cursor (constant cost at any depth, stable while accounts are created). */
  async execute({ limit, offset, cursor }: ListAccounts): Promise<AccountList> {
    const { views, pagination } = await readCursorIds(
      this.store,
      { index: accountKeys.index, filters: [] },
      { limit, offset, cursor, order: 'desc' },
      async (ids) => {
        const records = await Promise.all(ids.map((id) => this.store.hgetall(accountKeys.account(id))));
        return records.filter((r) => r.id).map(toDto);
      },
      byCreation,
    );
    return { accounts: views, pagination };
  }
}

@QueryHandler(GetAccount)
export class GetAccountHandler implements IQueryHandler<GetAccount, AccountDto> {
  constructor(@Inject(READ_MODEL_STORE) private readonly store: ReadModelStore) {}

  async execute({ accountId, readAhead }: GetAccount): Promise<AccountDto> {
    const account = accountFromRecord(await readHash(this.store, accountKeys.account(accountId), readAhead));
    if (!account) throw new DomainError('not_found', `Account ${accountId} not found`);
    return account;
  }
}
