/**
 * RTCP sender and receiver reports (RFC 3550 §6.4.1, §6.4.2) in compound packets (§6.1), and the
 * round-trip time from a report block's LSR/DLSR (§6.4.1, "the source may compute ... A − LSR − DLSR").
 * Parsing never throws: it answers an error code, or skips packet types it does not read.
 */
export const RTCP_SR = 200;
export const RTCP_RR = 201;

export interface RtcpReportBlock {
  ssrc: number;
  /** 8-bit fixed point fraction (lost/expected · 256). */
  fractionLost: number;
  /** 24-bit signed. */
  cumulativeLost: number;
  extendedHighestSequence: number;
  /** Interarrival jitter in timestamp units. */
  jitter: number;
  /** Middle 32 bits of the NTP timestamp of the last SR received from this source, 0 if none. */
  lastSenderReport: number;
  /** Delay since that SR, in 1/65536 s. */
  delaySinceLastSenderReport: number;
}

export interface RtcpSenderReport {
  type: 'sr';
  ssrc: number;
  ntpSeconds: number;
  ntpFraction: number;
  rtpTimestamp: number;
  packetCount: number;
  octetCount: number;
  reports: RtcpReportBlock[];
}

export interface RtcpReceiverReport {
  type: 'rr';
  ssrc: number;
  reports: RtcpReportBlock[];
}

/** Any other packet of a compound (SDES, BYE, APP, feedback): only its type is kept. */
export interface RtcpOtherPacket {
  type: 'other';
  packetType: number;
}

export type RtcpPacket = RtcpSenderReport | RtcpReceiverReport | RtcpOtherPacket;
export type RtcpParseError = 'too_short' | 'bad_version' | 'bad_length' | 'bad_report_count';

const u32 = (b: Uint8Array, o: number): number => ((b[o] << 24) | (b[o + 1] << 16) | (b[o + 2] << 8) | b[o + 3]) >>> 0;

function readBlock(b: Uint8Array, o: number): RtcpReportBlock {
  const raw = (b[o + 5] << 16) | (b[o + 6] << 8) | b[o + 7];
  return {
    ssrc: u32(b, o),
    fractionLost: b[o + 4],
    cumulativeLost: raw & 0x800000 ? raw - 0x1000000 : raw,
    extendedHighestSequence: u32(b, o + 8),
    jitter: u32(b, o + 12),
    lastSenderReport: u32(b, o + 16),
    delaySinceLastSenderReport: u32(b, o + 20),
  };
}

/** Parses a compound RTCP packet (§6.1). */
export function parseRtcp(buf: Uint8Array): RtcpPacket[] | RtcpParseError {
  if (buf.length < 4) return 'too_short';
  const packets: RtcpPacket[] = [];
  let offset = 0;
  while (offset < buf.length) {
    if (buf.length - offset < 4) return 'too_short';
    if (buf[offset] >> 6 !== 2) return 'bad_version';
    const count = buf[offset] & 0x1f;
    const packetType = buf[offset + 1];
    // §6.4.1: length in 32-bit words minus one, header included.
    const length = (((buf[offset + 2] << 8) | buf[offset + 3]) + 1) * 4;
    if (offset + length > buf.length) return 'bad_length';
    const parsed = parseOne(buf.subarray(offset, offset + length), packetType, count);
    if (typeof parsed === 'string') return parsed;
    packets.push(parsed);
    offset += length;
  }
  return packets;
}

function parseOne(p: Uint8Array, packetType: number, count: number): RtcpPacket | RtcpParseError {
  if (packetType !== RTCP_SR && packetType !== RTCP_RR) return { type: 'other', packetType };
  const fixed = packetType === RTCP_SR ? 28 : 8;
  if (p.length < fixed) return 'bad_length';
  if (fixed + 24 * count > p.length) return 'bad_report_count';
  const reports: RtcpReportBlock[] = [];
  for (let i = 0; i < count; i++) reports.push(readBlock(p, fixed + 24 * i));
  const ssrc = u32(p, 4);
  if (packetType === RTCP_RR) return { type: 'rr', ssrc, reports };
  return {
    type: 'sr',
    ssrc,
    ntpSeconds: u32(p, 8),
    ntpFraction: u32(p, 12),
    rtpTimestamp: u32(p, 16),
    packetCount: u32(p, 20),
    octetCount: u32(p, 24),
    reports,
  };
}

function writeU32(b: Buffer, o: number, v: number): void {
  b.writeUInt32BE(v >>> 0, o);
}

function writeBlocks(b: Buffer, offset: number, reports: readonly RtcpReportBlock[]): void {
  reports.forEach((r, i) => {
    const o = offset + 24 * i;
    writeU32(b, o, r.ssrc);
    b[o + 4] = r.fractionLost & 0xff;
    const lost = r.cumulativeLost & 0xffffff;
    b[o + 5] = (lost >> 16) & 0xff;
    b[o + 6] = (lost >> 8) & 0xff;
    b[o + 7] = lost & 0xff;
    writeU32(b, o + 8, r.extendedHighestSequence);
    writeU32(b, o + 12, r.jitter);
    writeU32(b, o + 16, r.lastSenderReport);
    writeU32(b, o + 20, r.delaySinceLastSenderReport);
  });
}

function header(b: Buffer, count: number, packetType: number): void {
  if (count > 31) throw new RangeError('at most 31 report blocks in one RTCP report (§6.4.1 RC)');
  b[0] = 0x80 | count;
  b[1] = packetType;
  b.writeUInt16BE(b.length / 4 - 1, 2);
}

/** Serializes an SR (§6.4.1). */
export function serializeSenderReport(sr: Omit<RtcpSenderReport, 'type'>): Buffer {
  const b = Buffer.alloc(28 + 24 * sr.reports.length);
  header(b, sr.reports.length, RTCP_SR);
  writeU32(b, 4, sr.ssrc);
  writeU32(b, 8, sr.ntpSeconds);
  writeU32(b, 12, sr.ntpFraction);
  writeU32(b, 16, sr.rtpTimestamp);
  writeU32(b, 20, sr.packetCount);
  writeU32(b, 24, sr.octetCount);
  writeBlocks(b, 28, sr.reports);
  return b;
}

/** Serializes an RR (§6.4.2). */
export function serializeReceiverReport(rr: Omit<RtcpReceiverReport, 'type'>): Buffer {
  const b = Buffer.alloc(8 + 24 * rr.reports.length);
  header(b, rr.reports.length, RTCP_RR);
  writeU32(b, 4, rr.ssrc);
  writeBlocks(b, 8, rr.reports);
  return b;
}

const NTP_UNIX_OFFSET_S = 2_208_988_800;

/** NTP timestamp (§4) of a wall-clock instant in Unix ms (wall clock is right here: SR carries an instant). */
export function ntpFromUnixMs(unixMs: number): { seconds: number; fraction: number } {
  const seconds = Math.floor(unixMs / 1000);
  const fraction = Math.floor(((unixMs - seconds * 1000) / 1000) * 2 ** 32);
  return { seconds: (seconds + NTP_UNIX_OFFSET_S) >>> 0, fraction: fraction >>> 0 };
}

/** The middle 32 bits of an NTP timestamp, the unit of LSR (§6.4.1). */
export function ntpMiddle32(seconds: number, fraction: number): number {
  return (((seconds & 0xffff) << 16) | (fraction >>> 16)) >>> 0;
}

/**
 * Round-trip time in ms from a report block about our stream, received at NTP-middle-32 time
 * `arrivalMiddle32` (§6.4.1: RTT = A − LSR − DLSR, all in 1/65536 s). Null when the block carries no
 * LSR (the peer has had no SR of ours) or the result is negative (clocks of a misbehaving peer).
 */
export function roundTripMs(block: RtcpReportBlock, arrivalMiddle32: number): number | null {
  if (block.lastSenderReport === 0) return null;
  const rtt = (arrivalMiddle32 - block.lastSenderReport - block.delaySinceLastSenderReport) | 0;
  if (rtt < 0) return null;
  return (rtt / 65536) * 1000;
}
