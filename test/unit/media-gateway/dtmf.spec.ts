import fc from 'fast-check';
import {
  DtmfReceiver,
  dtmfDigit,
  dtmfEvent,
  dtmfPackets,
  parseTelephoneEvent,
  writeTelephoneEvent,
} from '../../../media-gateway/src/media';

describe('RFC 4733 telephone events', () => {
  it('given a recorded event packet for digit 5, end bit, volume 10, duration 800, then it decodes', () => {
    expect(parseTelephoneEvent(Buffer.from('058a0320', 'hex'))).toEqual({
      event: 5,
      end: true,
      volume: 10,
      duration: 800,
    });
    expect(parseTelephoneEvent(Buffer.from('058a03', 'hex'))).toBeNull();
  });

  it('maps events 0-15 to 0-9 * # A-D (§3.2) and back', () => {
    expect(Array.from({ length: 16 }, (_, i) => dtmfDigit(i)).join('')).toBe('0123456789*#ABCD');
    expect(dtmfDigit(16)).toBeNull();
    expect([dtmfEvent('#'), dtmfEvent('d'), dtmfEvent('x'), dtmfEvent('12')]).toEqual([11, 15, null, null]);
  });

  it('round-trips any event through write and parse', () => {
    fc.assert(
      fc.property(
        fc.record({
          event: fc.integer({ min: 0, max: 255 }),
          end: fc.boolean(),
          volume: fc.integer({ min: 0, max: 63 }),
          duration: fc.integer({ min: 0, max: 0xffff }),
        }),
        (ev) => expect(parseTelephoneEvent(writeTelephoneEvent(ev))).toEqual(ev),
      ),
    );
  });

  it('sends a digit as growing-duration packets, the first marked, then the end packet three times (§2.5.1)', () => {
    const packets = dtmfPackets('7', { durationMs: 100 });
    const events = packets.map((p) => parseTelephoneEvent(p.payload));
    expect(packets.map((p) => p.marker)).toEqual([true, false, false, false, false, false, false]);
    expect(events.map((e) => e?.duration)).toEqual([160, 320, 480, 640, 800, 800, 800]);
    expect(events.map((e) => e?.end)).toEqual([false, false, false, false, true, true, true]);
    expect(() => dtmfPackets('x')).toThrow(RangeError);
  });

  it('reports each digit once, however many packets and end retransmits carry it', () => {
    const receiver = new DtmfReceiver();
    const seen: string[] = [];
    for (const [digit, ts] of [
      ['1', 1000],
      ['1', 1000],
      ['9', 3000],
    ] as const) {
      for (const p of dtmfPackets(digit)) {
        const d = receiver.onPacket(ts, p.payload);
        if (d) seen.push(d);
      }
    }
    expect(seen).toEqual(['1', '9']);
    expect(receiver.onPacket(5000, Uint8Array.of(1))).toBeNull();
  });
});
