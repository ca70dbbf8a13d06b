"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.trunkNameStream = exports.sipUsernameStream = exports.reservationDecider = void 0;
const node_crypto_1 = require("node:crypto");
const domain_error_1 = require("../../../shared/domain-error");
const reservationDecider = (value) => ({
    initialState: () => ({ holder: null, since: null }),
    decide(command, state) {
        const { ownerId, at } = command.data;
        switch (command.type) {
            case 'Reserve':
                if (state.holder === ownerId)
                    return [];
                if (state.holder !== null && state.holder !== command.data.takeOverFrom) {
                    throw new domain_error_1.DomainError('conflict', `${value} is already in use`);
                }
                return [{ type: 'Reserved', data: { value, owner_id: ownerId, reserved_at: at.toISOString() } }];
            case 'Release':
                if (state.holder !== ownerId)
                    return [];
                return [{ type: 'Released', data: { value, owner_id: ownerId, released_at: at.toISOString() } }];
        }
    },
    evolve(_state, event) {
        return event.type === 'Reserved' ? { holder: event.data.owner_id, since: event.data.reserved_at } : { holder: null, since: null };
    },
});
exports.reservationDecider = reservationDecider;
/** sip_username is unique across all accounts, case-insensitively. */
const sipUsernameStream = (sipUsername) => `reservation-sipuser-${sipUsername.toLowerCase()}`;
exports.sipUsernameStream = sipUsernameStream;
/** Trunk names are unique within an account after trimming, case-insensitively. */
const trunkNameStream = (accountId, name) => `reservation-trunkname-${accountId}-${(0, node_crypto_1.createHash)('sha256').update(name.trim().toLowerCase()).digest('hex').slice(0, 32)}`;
exports.trunkNameStream = trunkNameStream;
//# sourceMappingURL=reservation.decider.js.map