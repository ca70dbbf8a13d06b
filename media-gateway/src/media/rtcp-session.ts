import { MonotonicClock } from './clock';
import { ReceiveStats } from './receive-stats';
import {
  RtcpReportBlock,
  ntpFromUnixMs,
  ntpMiddle32,
  parseRtcp,
  roundTripMs,
  serializeReceiverReport,
  serializeSenderReport,
} from './rtcp';
import { RtpSender } from './rtp-sender';

/**
 * RTCP of one call: the reports we send (an SR while we send audio, with a report block about the
 * carrier's stream) and what we learn from the carrier's: the round trip from its report blocks about
 * us (RFC 3550 §6.4.1). NTP times come from one wall-clock anchor advanced by the monotonic clock, so
 * A − LSR − DLSR is computed on one time base however the wall clock is stepped during the call.
 */
export class RtcpSession {
  private readonly anchorUnixMs: number;
  private readonly anchorMonoMs: number;
  private remoteSsrc: number | null = null;
  /** LSR and arrival (monotonic) of the last SR the carrier sent us, for our report's LSR/DLSR. */
  private lastRemoteSr: { middle32: number; atMs: number } | null = null;
  private readonly rtts: number[] = [];
  malformed = 0;

  constructor(
    private readonly clock: MonotonicClock,
    private readonly sender: RtpSender,
    private readonly stats: ReceiveStats,
    wallClockNowMs: number = Date.now(),
  ) {
    this.anchorUnixMs = wallClockNowMs;
    this.anchorMonoMs = clock.nowMs();
  }

  /** The carrier's SSRC, once its first RTP packet is seen (for our report block about it). */
  setRemoteSsrc(ssrc: number): void {
    this.remoteSsrc = ssrc >>> 0;
  }

  /** Our report: an SR (we are a sender from the first packet on), else an RR. Send every few seconds (§6.2). */
  report(): Buffer {
    const reports = this.reportBlocks();
    if (this.sender.packetsSent === 0) return serializeReceiverReport({ ssrc: this.sender.ssrc, reports });
    const ntp = this.ntpNow();
    return serializeSenderReport({
      ssrc: this.sender.ssrc,
      ntpSeconds: ntp.seconds,
      ntpFraction: ntp.fraction,
      rtpTimestamp: this.sender.timestamp,
      packetCount: this.sender.packetsSent,
      octetCount: this.sender.octetsSent,
      reports,
    });
  }

  /** One RTCP datagram from the carrier. Returns the round trips (ms) it yielded; malformed ones are counted. */
  receive(datagram: Uint8Array): number[] {
    const packets = parseRtcp(datagram);
    if (typeof packets === 'string') {
      this.malformed++;
      return [];
    }
    const arrival = this.ntpNow();
    const arrivalMiddle = ntpMiddle32(arrival.seconds, arrival.fraction);
    const found: number[] = [];
    for (const packet of packets) {
      if (packet.type === 'other') continue;
      if (packet.type === 'sr') {
        this.lastRemoteSr = { middle32: ntpMiddle32(packet.ntpSeconds, packet.ntpFraction), atMs: this.clock.nowMs() };
      }
      for (const block of packet.reports) {
        if (block.ssrc !== this.sender.ssrc) continue;
        const rtt = roundTripMs(block, arrivalMiddle);
        if (rtt !== null) found.push(rtt);
      }
    }
    this.rtts.push(...found);
    return found;
  }

  /** Mean round trip over the call, ms; null when the carrier sent no usable report (no RTCP). */
  meanRoundTripMs(): number | null {
    return this.rtts.length === 0 ? null : this.rtts.reduce((a, b) => a + b, 0) / this.rtts.length;
  }

  private reportBlocks(): RtcpReportBlock[] {
    if (this.remoteSsrc === null) return [];
    const sr = this.lastRemoteSr;
    return [
      {
        ssrc: this.remoteSsrc,
        ...this.stats.intervalLoss(),
        extendedHighestSequence: this.stats.extendedHighestSequence >>> 0,
        jitter: this.stats.jitterTimestampUnits,
        lastSenderReport: sr?.middle32 ?? 0,
        delaySinceLastSenderReport: sr ? Math.round(((this.clock.nowMs() - sr.atMs) / 1000) * 65536) >>> 0 : 0,
      },
    ];
  }

  private ntpNow(): { seconds: number; fraction: number } {
    return ntpFromUnixMs(this.anchorUnixMs + (this.clock.nowMs() - this.anchorMonoMs));
  }
}
