import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { ReadAheadResult, readHash } from '../../infrastructure/read-model/read-ahead';
import { READ_MODEL_STORE, ReadModelStore } from '../../infrastructure/read-model/read-model-store.port';
import { accountKeys } from '../projections/accounts.projection';
import { DomainError } from '../../shared/domain-error';
import { AccountDto } from '../contracts/account.dto';

export class ListAccounts {
  constructor(
    readonly limit: number,
    readonly offset: number,
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
  pagination: { limit: number; offset: number; total: number };
}

const toDto = (h: Record<string, string>): AccountDto => ({ id: h.id, name: h.name, created_at: h.created_at });

/** The account as served from its read-model hash; null when there is none. */
export const accountFromRecord = (record: Record<string, string>): AccountDto | null =>
  record.id ? toDto(record) : null;

@QueryHandler(ListAccounts)
export class ListAccountsHandler implements IQueryHandler<ListAccounts, AccountList> {
  constructor(@Inject(READ_MODEL_STORE) private readonly store: ReadModelStore) {}

  async execute({ limit, offset }: ListAccounts): Promise<AccountList> {
    const [total, ids] = await Promise.all([
      this.store.zcard(accountKeys.index),
      this.store.zrange(accountKeys.index, offset, limit, 'desc'),
    ]);
    const records = await Promise.all(ids.map((id) => this.store.hgetall(accountKeys.account(id))));
    return { accounts: records.filter((r) => r.id).map(toDto), pagination: { limit, offset, total } };
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
