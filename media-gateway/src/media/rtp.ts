/**
 * RTP fixed header parse and serialize (RFC 3550 §5.1). Written here rather than taken from a
 * library so that the hot path reuses one header object and one output buffer per call: parsing
 * never throws, it answers an error code for anything RFC 3550 §A.1 says a receiver must discard.
 */
export const RTP_HEADER_BYTES = 12;

export interface RtpHeader {
  /** Always 2 once parsed (§5.1 "version (V): 2 bits"). */
  version: number;
  padding: boolean;
  extension: boolean;
  marker: boolean;
  payloadType: number;
  /** 16-bit, wraps (§5.1). */
  sequenceNumber: number;
  /** 32-bit unsigned. */
  timestamp: number;
  ssrc: number;
  csrcCount: number;
  /** Byte offset of the payload in the parsed buffer (after CSRCs and header extension, §5.3.1). */
  payloadOffset: number;
  /** Payload length without padding (§5.1 "padding (P)"). */
  payloadLength: number;
}

export type RtpParseError = 'too_short' | 'bad_version' | 'bad_csrc' | 'bad_extension' | 'bad_padding';

/** A fresh header to reuse with `parseRtpInto` (one per call, not per packet). */
export function newRtpHeader(): RtpHeader {
  return {
    version: 2,
    padding: false,
    extension: false,
    marker: false,
    payloadType: 0,
    sequenceNumber: 0,
    timestamp: 0,
    ssrc: 0,
    csrcCount: 0,
    payloadOffset: RTP_HEADER_BYTES,
    payloadLength: 0,
  };
}

/**
 * Parses `buf` into `into` (reused, no allocation). Returns null on success or why the packet is
 * invalid; `into` is then unspecified. The payload is `buf.subarray(h.payloadOffset, h.payloadOffset + h.payloadLength)`.
 */
export function parseRtpInto(buf: Uint8Array, into: RtpHeader): RtpParseError | null {
  if (buf.length < RTP_HEADER_BYTES) return 'too_short';
  const b0 = buf[0];
  const version = b0 >> 6;
  if (version !== 2) return 'bad_version';
  const csrcCount = b0 & 0x0f;
  let offset = RTP_HEADER_BYTES + 4 * csrcCount;
  if (offset > buf.length) return 'bad_csrc';
  const extension = (b0 & 0x10) !== 0;
  if (extension) {
    // §5.3.1: 16-bit profile-defined field, 16-bit length in 32-bit words excluding the 4-byte header.
    if (offset + 4 > buf.length) return 'bad_extension';
    const words = (buf[offset + 2] << 8) | buf[offset + 3];
    offset += 4 + 4 * words;
    if (offset > buf.length) return 'bad_extension';
  }
  let end = buf.length;
  const padding = (b0 & 0x20) !== 0;
  if (padding) {
    // §5.1: the last octet counts the padding octets, itself included; zero is invalid (A.1).
    const count = buf[buf.length - 1];
    if (count === 0 || end - count < offset) return 'bad_padding';
    end -= count;
  }
  const b1 = buf[1];
  into.version = version;
  into.padding = padding;
  into.extension = extension;
  into.marker = (b1 & 0x80) !== 0;
  into.payloadType = b1 & 0x7f;
  into.sequenceNumber = (buf[2] << 8) | buf[3];
  into.timestamp = ((buf[4] << 24) | (buf[5] << 16) | (buf[6] << 8) | buf[7]) >>> 0;
  into.ssrc = ((buf[8] << 24) | (buf[9] << 16) | (buf[10] << 8) | buf[11]) >>> 0;
  into.csrcCount = csrcCount;
  into.payloadOffset = offset;
  into.payloadLength = end - offset;
  return null;
}

/** Allocating convenience for tests and cold paths. */
export function parseRtp(
  buf: Uint8Array,
): { ok: true; header: RtpHeader; payload: Uint8Array } | { ok: false; error: RtpParseError } {
  const header = newRtpHeader();
  const error = parseRtpInto(buf, header);
  if (error) return { ok: false, error };
  return { ok: true, header, payload: buf.subarray(header.payloadOffset, header.payloadOffset + header.payloadLength) };
}

export interface RtpWriteHeader {
  marker: boolean;
  payloadType: number;
  sequenceNumber: number;
  timestamp: number;
  ssrc: number;
}

/** Writes a 12-byte header (V=2, no padding, extension or CSRC) and the payload into `out`; returns the byte count. */
export function writeRtp(out: Uint8Array, h: RtpWriteHeader, payload: Uint8Array): number {
  const length = RTP_HEADER_BYTES + payload.length;
  if (out.length < length) throw new RangeError(`RTP buffer of ${out.length} bytes cannot hold ${length}`);
  out[0] = 0x80;
  out[1] = (h.marker ? 0x80 : 0) | (h.payloadType & 0x7f);
  out[2] = (h.sequenceNumber >> 8) & 0xff;
  out[3] = h.sequenceNumber & 0xff;
  out[4] = (h.timestamp >>> 24) & 0xff;
  out[5] = (h.timestamp >>> 16) & 0xff;
  out[6] = (h.timestamp >>> 8) & 0xff;
  out[7] = h.timestamp & 0xff;
  out[8] = (h.ssrc >>> 24) & 0xff;
  out[9] = (h.ssrc >>> 16) & 0xff;
  out[10] = (h.ssrc >>> 8) & 0xff;
  out[11] = h.ssrc & 0xff;
  out.set(payload, RTP_HEADER_BYTES);
  return length;
}
