import { eventGuard } from '../../../src/shared/event-guard';

type Opened = { type: 'Opened'; data: { id: string } };
type Closed = { type: 'Closed'; data: { id: string; at: string } };
const isDoorEvent = eventGuard<Opened | Closed>({ Opened: true, Closed: true });

/** An event as a carrier holds it (a stored event has more: its id, stream, position). */
const carried = (type: string, data: unknown) => ({ type, data, revision: 3 });

describe('event guard', () => {
  it('accepts the events of its union and keeps what carries them', () => {
    const event = carried('Closed', { id: 'door-1', at: 'noon' });
    expect(isDoorEvent(event)).toBe(true);
    if (isDoorEvent(event) && event.type === 'Closed') expect([event.data.at, event.revision]).toEqual(['noon', 3]);
  });

  it('refuses an event of another union', () => {
    expect(isDoorEvent(carried('TrunkCreated', { id: 'conn_1' }))).toBe(false);
  });

  it('narrows a list to its events', () => {
    const events = [carried('Opened', { id: 'a' }), carried('Painted', {}), carried('Closed', { id: 'a', at: 'b' })];
    expect(events.filter(isDoorEvent).map((e) => e.type)).toEqual(['Opened', 'Closed']);
  });
});
