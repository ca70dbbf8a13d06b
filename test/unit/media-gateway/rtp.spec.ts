import fc from 'fast-check';
import { RtpSender, newRtpHeader, parseRtp, parseRtpInto, writeRtp } from '../../../media-gateway/src/media';

/** A G.711 packet as a carrier sends it: V=2, PT 0, seq 0x1234, ts 0xDEADBEEF, SSRC 0x01020304, 160 bytes. */
function recordedPacket(): Buffer {
  const header = Buffer.from('80001234deadbeef01020304', 'hex');
  return Buffer.concat([header, Buffer.alloc(160, 0xff)]);
}

describe('RTP parse (RFC 3550 §5.1)', () => {
  it('given a recorded G.711 packet, when parsed, then every header field and the payload are read', () => {
    const parsed = parseRtp(recordedPacket());
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    expect(parsed.header).toMatchObject({
      version: 2,
      marker: false,
      payloadType: 0,
      sequenceNumber: 0x1234,
      timestamp: 0xdeadbeef,
      ssrc: 0x01020304,
      payloadOffset: 12,
      payloadLength: 160,
    });
    expect(parsed.payload.every((b) => b === 0xff)).toBe(true);
  });

  it('skips CSRCs and a header extension, and strips padding', () => {
    const packet = Buffer.concat([
      Buffer.from('b1e00001000000a0cafebabe', 'hex'), // V=2 P=1 X=1 CC=1, M=1 PT=96
      Buffer.from('11111111', 'hex'), // CSRC
      Buffer.from('bede0001aabbccdd', 'hex'), // extension: one 32-bit word
      Buffer.from('0102030405', 'hex'), // payload
      Buffer.from('000003', 'hex'), // 3 bytes of padding
    ]);
    const parsed = parseRtp(packet);
    expect(parsed.ok && parsed.header).toMatchObject({
      marker: true,
      payloadType: 96,
      csrcCount: 1,
      payloadOffset: 24,
    });
    expect(parsed.ok && Array.from(parsed.payload)).toEqual([1, 2, 3, 4, 5]);
  });

  it.each([
    ['too_short', Buffer.alloc(11, 0x80)],
    ['bad_version', Buffer.from('40001234deadbeef01020304', 'hex')],
    ['bad_csrc', Buffer.from('8f001234deadbeef01020304', 'hex')],
    ['bad_extension', Buffer.from('90001234deadbeef01020304bede0009', 'hex')],
    ['bad_padding', Buffer.from('a0001234deadbeef01020304aa00', 'hex')],
    ['bad_padding', Buffer.from('a0001234deadbeef01020304ff', 'hex')],
  ])('answers %s for a malformed packet', (error, packet) => {
    expect(parseRtpInto(packet, newRtpHeader())).toBe(error);
  });

  it('never throws and never points outside the buffer, whatever the bytes (fuzz)', () => {
    const header = newRtpHeader();
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), fc.boolean(), (bytes, forceV2) => {
        if (forceV2 && bytes.length > 0) bytes[0] = (bytes[0] & 0x3f) | 0x80;
        const error = parseRtpInto(bytes, header);
        if (error === null) {
          expect(header.payloadOffset).toBeGreaterThanOrEqual(12);
          expect(header.payloadLength).toBeGreaterThanOrEqual(0);
          expect(header.payloadOffset + header.payloadLength).toBeLessThanOrEqual(bytes.length);
        }
      }),
      { numRuns: 5000 },
    );
  });

  it('reads back what writeRtp wrote, for any header (round trip)', () => {
    const out = Buffer.alloc(12 + 200);
    fc.assert(
      fc.property(
        fc.record({
          marker: fc.boolean(),
          payloadType: fc.integer({ min: 0, max: 127 }),
          sequenceNumber: fc.integer({ min: 0, max: 0xffff }),
          timestamp: fc.integer({ min: 0, max: 0xffffffff }),
          ssrc: fc.integer({ min: 0, max: 0xffffffff }),
        }),
        fc.uint8Array({ maxLength: 200 }),
        (h, payload) => {
          const n = writeRtp(out, h, payload);
          const parsed = parseRtp(out.subarray(0, n));
          expect(parsed.ok && parsed.header).toMatchObject(h);
          expect(parsed.ok && Buffer.from(parsed.payload).equals(Buffer.from(payload))).toBe(true);
        },
      ),
    );
  });
});

describe('RtpSender', () => {
  it('numbers packets, advances the timestamp by the samples sent, and marks the first packet of a talkspurt', () => {
    const sender = new RtpSender({ payloadType: 8, ssrc: 7, sequenceNumber: 0xffff, timestamp: 0xffffff00 });
    const frame = new Uint8Array(160);
    const first = parseRtp(Buffer.from(sender.audio(frame)));
    const second = parseRtp(Buffer.from(sender.audio(frame)));
    sender.skip(160);
    const afterGap = parseRtp(Buffer.from(sender.audio(frame)));
    expect(first.ok && first.header).toMatchObject({
      sequenceNumber: 0xffff,
      timestamp: 0xffffff00,
      marker: true,
      payloadType: 8,
      ssrc: 7,
    });
    expect(second.ok && second.header).toMatchObject({ sequenceNumber: 0, timestamp: 0xffffffa0 >>> 0, marker: false });
    expect(afterGap.ok && afterGap.header).toMatchObject({ sequenceNumber: 1, timestamp: 0xe0, marker: true });
    expect([sender.packetsSent, sender.octetsSent]).toEqual([3, 480]);
  });

  it('sends another payload type at a given timestamp without moving the audio clock', () => {
    const sender = new RtpSender({ payloadType: 0, ssrc: 1, sequenceNumber: 10, timestamp: 1000 });
    const event = parseRtp(Buffer.from(sender.packet(Uint8Array.of(5, 0, 0, 160), 101, 800, true)));
    expect(event.ok && event.header).toMatchObject({
      payloadType: 101,
      timestamp: 800,
      sequenceNumber: 10,
      marker: true,
    });
    expect(sender.timestamp).toBe(1000);
  });
});
