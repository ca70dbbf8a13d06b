import { eventsAfter } from '../../../src/analytics/live/account-feed';
import { StreamPosition } from '../../../src/analytics/live/call-stream.position';
import { StreamEvent } from '../../../src/analytics/live/call-stream.reader';
import { compareFeedCursors, feedCursorAfter } from '../../../src/calls/read/call-changes.queries';

const cursor = (version: number, id: string) => feedCursorAfter({ id, version });
const rejectionAt = (storedMs: number, id: string) => ({ storedMs, trunkId: 'conn_a', id });
const call = (version: number, id: string, rejections = rejectionAt(0, '')): StreamEvent =>
  ({
    kind: 'call',
    data: { id },
    position: { callsCursor: cursor(version, id), rejections },
  }) as unknown as StreamEvent;
const rejection = (storedMs: number, id: string, callsCursor: string): StreamEvent =>
  ({
    kind: 'rejection',
    data: { id },
    position: { callsCursor, rejections: rejectionAt(storedMs, id) },
  }) as unknown as StreamEvent;

describe("an account feed's round, handed to each stream from its own position", () => {
  // One read from the earliest of the streams' positions: calls, then rejections.
  const read = [call(5, 'call_a'), call(6, 'call_b'), call(6, 'call_c'), rejection(100, 'rej_x', cursor(6, 'call_c'))];

  it("gives a stream at the read's start every event, positioned as read", () => {
    const from: StreamPosition = { callsCursor: cursor(4, 'call_z'), rejections: rejectionAt(0, '') };
    expect(eventsAfter(read, from).map((e) => e.data.id)).toEqual(['call_a', 'call_b', 'call_c', 'rej_x']);
  });

  it('skips what a stream ahead already sent, in each order apart, and keeps its own position in the other', () => {
    const ahead: StreamPosition = { callsCursor: cursor(6, 'call_b'), rejections: rejectionAt(200, 'rej_y') };
    const events = eventsAfter(read, ahead);
    expect(events.map((e) => e.data.id)).toEqual(['call_c']);
    expect(events[0].position).toEqual({ callsCursor: cursor(6, 'call_c'), rejections: ahead.rejections });
  });

  it('orders cursors by version, then by call id byte by byte, with the head after every id of its version', () => {
    expect(compareFeedCursors(cursor(5, 'call_z'), cursor(6, 'call_a'))).toBeLessThan(0);
    expect(compareFeedCursors(cursor(6, 'call_b'), cursor(6, 'call_a'))).toBeGreaterThan(0);
    expect(compareFeedCursors(cursor(6, 'call_a'), cursor(6, 'call_a'))).toBe(0);
    expect(compareFeedCursors(cursor(6, 'call_zzz'), cursor(6, '\uffff'))).toBeLessThan(0);
  });
});
