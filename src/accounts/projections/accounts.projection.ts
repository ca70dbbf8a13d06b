import { StoredEvent } from '../../infrastructure/event-store/event-store.port';
import { WriteOp } from '../../infrastructure/read-model/read-model-store.port';
import { isAccountEvent } from '../domain/account.decider';
import { Projection } from '../../eventsourcing/projection';

/** Read-model layout, shared with the queries in src/accounts/read. */
export const accountKeys = {
  account: (id: string) => `account:${id}`,
  index: 'accounts',
};

export const accountsProjection: Projection = {
  name: 'accounts',
  types: isAccountEvent.types,
  apply(event: StoredEvent): WriteOp[] {
    if (!isAccountEvent(event)) return [];
    switch (event.type) {
      case 'AccountCreated': {
        const { account_id, name, created_at } = event.data;
        return [
          { op: 'hset', key: accountKeys.account(account_id), fields: { id: account_id, name, created_at } },
          { op: 'zadd', key: accountKeys.index, score: Date.parse(created_at), member: account_id },
        ];
      }
      default:
        return [];
    }
  },
};
