"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.trunkKeys = void 0;
exports.trunkKeys = {
    trunk: (id) => `trunk:${id}`,
    trunkPrefix: 'trunk:',
    byAccount: (accountId) => `trunks:${accountId}`,
    byAccountAndStatus: (accountId, status) => `trunks:${accountId}:status:${status}`,
    gateway: (sipUsername) => `gateway:${sipUsername.toLowerCase()}`,
};
//# sourceMappingURL=trunk-view.js.map