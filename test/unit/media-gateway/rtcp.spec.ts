import fc from 'fast-check';
import {
  ntpFromUnixMs,
  ntpMiddle32,
  parseRtcp,
  roundTripMs,
  serializeReceiverReport,
  serializeSenderReport,
  type RtcpReportBlock,
} from '../../../media-gateway/src/media';

const block = (over: Partial<RtcpReportBlock> = {}): RtcpReportBlock => ({
  ssrc: 0x11223344,
  fractionLost: 12,
  cumulativeLost: -3,
  extendedHighestSequence: 70000,
  jitter: 40,
  lastSenderReport: 0x12345678,
  delaySinceLastSenderReport: 0x8000,
  ...over,
});

describe('RTCP reports (RFC 3550 §6.4)', () => {
  it('given a compound SR + RR, when parsed, then both come back with their report blocks', () => {
    const sr = serializeSenderReport({
      ssrc: 1,
      ntpSeconds: 3_900_000_000,
      ntpFraction: 0x80000000,
      rtpTimestamp: 160,
      packetCount: 50,
      octetCount: 8000,
      reports: [block()],
    });
    const rr = serializeReceiverReport({
      ssrc: 2,
      reports: [block({ ssrc: 9 }), block({ ssrc: 10, cumulativeLost: 5 })],
    });
    const sdes = Buffer.from('81ca000100000001', 'hex');
    const parsed = parseRtcp(Buffer.concat([sr, rr, sdes]));
    expect(parsed).toEqual([
      {
        type: 'sr',
        ssrc: 1,
        ntpSeconds: 3_900_000_000,
        ntpFraction: 0x80000000,
        rtpTimestamp: 160,
        packetCount: 50,
        octetCount: 8000,
        reports: [block()],
      },
      { type: 'rr', ssrc: 2, reports: [block({ ssrc: 9 }), block({ ssrc: 10, cumulativeLost: 5 })] },
      { type: 'other', packetType: 202 },
    ]);
  });

  it.each([
    ['too_short', Buffer.from('80c9', 'hex')],
    ['bad_version', Buffer.from('40c9000100000001', 'hex')],
    ['bad_length', Buffer.from('80c9000500000001', 'hex')],
    ['bad_report_count', Buffer.from('81c9000100000001', 'hex')],
  ])('answers %s for a malformed packet', (error, packet) => {
    expect(parseRtcp(packet)).toBe(error);
  });

  it('never throws on arbitrary bytes (fuzz)', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 200 }), (bytes) => {
        if (bytes.length > 0) bytes[0] = (bytes[0] & 0x3f) | 0x80;
        const parsed = parseRtcp(bytes);
        expect(typeof parsed === 'string' || Array.isArray(parsed)).toBe(true);
      }),
      { numRuns: 5000 },
    );
  });

  it('computes the round trip as A − LSR − DLSR (§6.4.1): SR sent at t, answered 250 ms later after 200 ms held → 50 ms', () => {
    const sentAt = ntpFromUnixMs(1_700_000_000_000);
    const lsr = ntpMiddle32(sentAt.seconds, sentAt.fraction);
    const arrival = ntpFromUnixMs(1_700_000_000_250);
    const rtt = roundTripMs(
      block({ lastSenderReport: lsr, delaySinceLastSenderReport: Math.round(0.2 * 65536) }),
      ntpMiddle32(arrival.seconds, arrival.fraction),
    );
    expect(rtt).toBeCloseTo(50, 0);
  });

  it('has no round trip when the peer has had no SR of ours (LSR 0)', () => {
    expect(roundTripMs(block({ lastSenderReport: 0 }), 123456)).toBeNull();
  });
});
