import { Decider } from '../../shared/decider';
import { DomainError } from '../../shared/domain-error';
import { eventGuard } from '../../shared/event-guard';

export type AccountCommand = {
  type: 'CreateAccount';
  data: { accountId: string; name: string; at: Date };
};

export type AccountEvent = {
  type: 'AccountCreated';
  data: { account_id: string; name: string; created_at: string };
};

export const isAccountEvent = eventGuard<AccountEvent>({ AccountCreated: true });

export type AccountState = { status: 'none' } | { status: 'open'; accountId: string; name: string };

export const accountDecider: Decider<AccountCommand, AccountEvent, AccountState> = {
  initialState: () => ({ status: 'none' }),

  decide(command, state) {
    switch (command.type) {
      case 'CreateAccount':
        if (state.status !== 'none')
          throw new DomainError('conflict', `Account ${command.data.accountId} already exists`);
        return [
          {
            type: 'AccountCreated',
            data: {
              account_id: command.data.accountId,
              name: command.data.name,
              created_at: command.data.at.toISOString(),
            },
          },
        ];
    }
  },

  evolve(state, event) {
    switch (event.type) {
      case 'AccountCreated':
        return { status: 'open', accountId: event.data.account_id, name: event.data.name };
    }
  },
};

export const accountStream = (accountId: string): string => `account-${accountId}`;
