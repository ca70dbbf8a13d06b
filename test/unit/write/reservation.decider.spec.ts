import {
  reservationDecider,
  ReservationEvent,
  sipUsernameStream,
  trunkNameStream,
} from '../../../src/trunks/domain/reservation.decider';
import { deciderSpec } from '../../support/decider-spec';

const spec = deciderSpec(reservationDecider('alice'));
const at = new Date('2026-11-21T10:00:00.000Z');
const reservedBy = (owner: string): ReservationEvent => ({
  type: 'Reserved',
  data: { value: 'alice', owner_id: owner, reserved_at: at.toISOString() },
});
const releasedBy = (owner: string): ReservationEvent => ({
  type: 'Released',
  data: { value: 'alice', owner_id: owner, released_at: at.toISOString() },
});

describe('reservation decider', () => {
  it('reserves a free value', () => {
    spec
      .given([])
      .when({ type: 'Reserve', data: { ownerId: 'conn_a', at } })
      .then([reservedBy('conn_a')]);
  });

  it('refuses a value held by another owner with conflict', () => {
    spec
      .given([reservedBy('conn_a')])
      .when({ type: 'Reserve', data: { ownerId: 'conn_b', at } })
      .thenThrows('conflict');
  });

  it('is idempotent for the holder', () => {
    spec
      .given([reservedBy('conn_a')])
      .when({ type: 'Reserve', data: { ownerId: 'conn_a', at } })
      .then([]);
  });

  it('reserves a released value again', () => {
    spec
      .given([reservedBy('conn_a'), releasedBy('conn_a')])
      .when({ type: 'Reserve', data: { ownerId: 'conn_b', at } })
      .then([reservedBy('conn_b')]);
  });

  it('takes over from a named stale holder only', () => {
    spec
      .given([reservedBy('conn_a')])
      .when({ type: 'Reserve', data: { ownerId: 'conn_b', at, takeOverFrom: 'conn_a' } })
      .then([reservedBy('conn_b')]);
    spec
      .given([reservedBy('conn_a')])
      .when({ type: 'Reserve', data: { ownerId: 'conn_b', at, takeOverFrom: 'conn_x' } })
      .thenThrows('conflict');
  });

  it('releases only for the holder', () => {
    spec
      .given([reservedBy('conn_a')])
      .when({ type: 'Release', data: { ownerId: 'conn_a', at } })
      .then([releasedBy('conn_a')]);
    spec
      .given([reservedBy('conn_a')])
      .when({ type: 'Release', data: { ownerId: 'conn_b', at } })
      .then([]);
    spec
      .given([])
      .when({ type: 'Release', data: { ownerId: 'conn_a', at } })
      .then([]);
  });

  it('keys usernames case-insensitively and names per account after trimming', () => {
    expect(sipUsernameStream('Alice-1')).toBe(sipUsernameStream('alice-1'));
    expect(trunkNameStream('acct_1', ' Main Line ')).toBe(trunkNameStream('acct_1', 'main line'));
    expect(trunkNameStream('acct_1', 'Main')).not.toBe(trunkNameStream('acct_2', 'Main'));
  });
});
