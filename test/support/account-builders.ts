import { AccountEvent } from '../../src/accounts/domain/account.decider';
import { eventBuilder } from './event-builder';

export const accountCreated = eventBuilder<AccountEvent>('AccountCreated', {
  account_id: 'acct_1',
  name: 'Acme Voice',
  created_at: '2026-11-21T10:00:00.000Z',
});
