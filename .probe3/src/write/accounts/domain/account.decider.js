"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.accountStream = exports.accountDecider = void 0;
const domain_error_1 = require("../../../shared/domain-error");
exports.accountDecider = {
    initialState: () => ({ status: 'none' }),
    decide(command, state) {
        switch (command.type) {
            case 'CreateAccount':
                if (state.status !== 'none')
                    throw new domain_error_1.DomainError('conflict', `Account ${command.data.accountId} already exists`);
                return [
                    {
                        type: 'AccountCreated',
                        data: { account_id: command.data.accountId, name: command.data.name, created_at: command.data.at.toISOString() },
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
const accountStream = (accountId) => `account-${accountId}`;
exports.accountStream = accountStream;
//# sourceMappingURL=account.decider.js.map