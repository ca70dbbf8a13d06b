"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.accountsProjection = exports.accountKeys = void 0;
/** Read-model layout, shared with the queries in src/read/accounts. */
exports.accountKeys = {
    account: (id) => `account:${id}`,
    index: 'accounts',
};
exports.accountsProjection = {
    name: 'accounts',
    apply(stored) {
        const event = stored;
        switch (event.type) {
            case 'AccountCreated': {
                const { account_id, name, created_at } = event.data;
                return [
                    { op: 'hset', key: exports.accountKeys.account(account_id), fields: { id: account_id, name, created_at } },
                    { op: 'zadd', key: exports.accountKeys.index, score: Date.parse(created_at), member: account_id },
                ];
            }
            default:
                return [];
        }
    },
};
//# sourceMappingURL=accounts.projection.js.map