import { createHash } from 'node:crypto';
import { Decider } from '../../shared/decider';
import { DomainError } from '../../shared/domain-error';

/**
 * A unique value (a sip_username, a trunk name within an account) is held by appending to the
 * value's own stream with the expected version of what was read: two writers racing for one
 * value cannot both win, and no eventually consistent read model is consulted.
 */
export type ReservationCommand =
  | { type: 'Reserve'; data: { ownerId: string; at: Date; takeOverFrom?: string } }
  | { type: 'Release'; data: { ownerId: string; at: Date } };

export type ReservationEvent =
  | { type: 'Reserved'; data: { value: string; owner_id: string; reserved_at: string } }
  | { type: 'Released'; data: { value: string; owner_id: string; released_at: string } };

export type ReservationState = { holder: string | null; since: string | null };

export const reservationDecider = (value: string): Decider<ReservationCommand, ReservationEvent, ReservationState> => ({
  initialState: () => ({ holder: null, since: null }),

  decide(command, state) {
    const { ownerId, at } = command.data;
    switch (command.type) {
      case 'Reserve':
        if (state.holder === ownerId) return [];
        if (state.holder !== null && state.holder !== command.data.takeOverFrom) {
          throw new DomainError('conflict', `${value} is already in use`);
        }
        return [{ type: 'Reserved', data: { value, owner_id: ownerId, reserved_at: at.toISOString() } }];
      case 'Release':
        if (state.holder !== ownerId) return [];
        return [{ type: 'Released', data: { value, owner_id: ownerId, released_at: at.toISOString() } }];
    }
  },

  evolve(_state, event) {
    return event.type === 'Reserved'
      ? { holder: event.data.owner_id, since: event.data.reserved_at }
      : { holder: null, since: null };
  },
});

/** sip_username is unique across all accounts, case-insensitively. */
export const sipUsernameStream = (sipUsername: string): string => `reservation-sipuser-${sipUsername.toLowerCase()}`;

/** Trunk names are unique within an account after trimming, case-insensitively. */
export const trunkNameStream = (accountId: string, name: string): string =>
  `reservation-trunkname-${accountId}-${createHash('sha256').update(name.trim().toLowerCase()).digest('hex').slice(0, 32)}`;
