/**
 * Receive statistics of one incoming RTP stream: sequence tracking with wraparound and loss
 * (RFC 3550 A.1 and A.3) and interarrival jitter (RFC 3550 §6.4.1, A.8).
 */
const RTP_SEQ_MOD = 1 << 16;
const MAX_DROPOUT = 3000;
const MAX_MISORDER = 100;

export type SequenceVerdict = 'ok' | 'duplicate_or_reordered' | 'restarted' | 'bad_jump';

export interface ReceiveStatsSnapshot {
  /** Packets received (duplicates included, as A.3 counts them). */
  received: number;
  /** Extended highest sequence number − base + 1 (A.3). */
  expected: number;
  /** max(0, expected − received): duplicates cannot make loss negative in a record. */
  lost: number;
  /** 100 · lost / expected, 0 when nothing expected. */
  lossPercent: number;
  /** Current RFC 3550 jitter estimate, ms. */
  jitterMs: number;
  /** Mean of the jitter estimate over all packets after the first, ms (what `jitter_ms` reports). */
  meanJitterMs: number;
  extendedHighestSequence: number;
}

export class ReceiveStats {
  private maxSeq = 0;
  private cycles = 0;
  private baseSeq = 0;
  private badSeq = RTP_SEQ_MOD + 1;
  private started = false;
  private receivedCount = 0;
  /** Totals of sequences before a restart (A.1 re-initialises; a call record wants the whole call). */
  private earlierExpected = 0;
  private earlierReceived = 0;
  private expectedPrior = 0;
  private receivedPrior = 0;
  private transit = 0;
  private hasTransit = false;
  /** Jitter in timestamp units, as A.8 keeps it. */
  private jitter = 0;
  private jitterSum = 0;
  private jitterSamples = 0;

  /** `clockRate` is the payload's RTP clock (8000 for G.711). */
  constructor(private readonly clockRate = 8000) {}

  /**
   * One packet that passed the parser. `arrivalMs` comes from a monotonic clock.
   * A.1 without probation: the first packet starts the stream (the carrier is authenticated by SIP).
   */
  onPacket(sequenceNumber: number, rtpTimestamp: number, arrivalMs: number): SequenceVerdict {
    const verdict = this.updateSequence(sequenceNumber & 0xffff);
    if (verdict === 'bad_jump') return verdict;
    this.receivedCount++;
    this.updateJitter(rtpTimestamp >>> 0, arrivalMs);
    return verdict;
  }

  // RFC 3550 A.1 update_seq, with the probation step left out.
  private updateSequence(seq: number): SequenceVerdict {
    if (!this.started) {
      this.initSequence(seq);
      this.started = true;
      return 'ok';
    }
    const udelta = (seq - this.maxSeq + RTP_SEQ_MOD) % RTP_SEQ_MOD;
    if (udelta < MAX_DROPOUT) {
      if (seq < this.maxSeq) this.cycles += RTP_SEQ_MOD;
      this.maxSeq = seq;
      return udelta === 0 ? 'duplicate_or_reordered' : 'ok';
    }
    if (udelta <= RTP_SEQ_MOD - MAX_MISORDER) {
      if (seq === this.badSeq) {
        // Two sequential packets after a large jump: the source restarted (A.1). What the old sequence
        // received and lost still counts for the call.
        this.earlierExpected += this.extendedHighestSequence - this.baseSeq + 1;
        this.earlierReceived += this.receivedCount;
        this.initSequence(seq);
        this.hasTransit = false;
        return 'restarted';
      }
      this.badSeq = (seq + 1) & (RTP_SEQ_MOD - 1);
      return 'bad_jump';
    }
    return 'duplicate_or_reordered';
  }

  private initSequence(seq: number): void {
    this.baseSeq = seq;
    this.maxSeq = seq;
    this.badSeq = RTP_SEQ_MOD + 1;
    this.cycles = 0;
    this.receivedCount = 0;
    this.expectedPrior = 0;
    this.receivedPrior = 0;
  }

  // RFC 3550 A.8: D = (Rj − Ri) − (Sj − Si) in timestamp units; J += (|D| − J) / 16.
  private updateJitter(rtpTimestamp: number, arrivalMs: number): void {
    const arrival = (arrivalMs * this.clockRate) / 1000;
    const transit = arrival - rtpTimestamp;
    if (this.hasTransit) {
      let d = transit - this.transit;
      // Timestamps wrap at 2^32; a difference past half the range is the wrap, not a jump.
      if (d > 2 ** 31) d -= 2 ** 32;
      else if (d < -(2 ** 31)) d += 2 ** 32;
      this.jitter += (Math.abs(d) - this.jitter) / 16;
      this.jitterSum += this.jitter;
      this.jitterSamples++;
    }
    this.transit = transit;
    this.hasTransit = true;
  }

  get extendedHighestSequence(): number {
    return this.cycles + this.maxSeq;
  }

  /** Jitter in timestamp units, for the RTCP report block (§6.4.1). */
  get jitterTimestampUnits(): number {
    return Math.floor(this.jitter);
  }

  /** Whole-call figures: sequences before a restart included. */
  snapshot(): ReceiveStatsSnapshot {
    const expected = this.earlierExpected + (this.started ? this.extendedHighestSequence - this.baseSeq + 1 : 0);
    const received = this.earlierReceived + this.receivedCount;
    const lost = Math.max(0, expected - received);
    return {
      received,
      expected,
      lost,
      lossPercent: expected > 0 ? (100 * lost) / expected : 0,
      jitterMs: (this.jitter * 1000) / this.clockRate,
      meanJitterMs: this.jitterSamples > 0 ? (this.jitterSum / this.jitterSamples / this.clockRate) * 1000 : 0,
      extendedHighestSequence: this.extendedHighestSequence,
    };
  }

  /**
   * Fraction lost since the previous call and cumulative lost, as an RTCP report block carries them
   * (RFC 3550 A.3). Cumulative lost is clamped to the 24-bit signed range of §6.4.1.
   */
  intervalLoss(): { fractionLost: number; cumulativeLost: number } {
    const expected = this.started ? this.extendedHighestSequence - this.baseSeq + 1 : 0;
    const expectedInterval = expected - this.expectedPrior;
    this.expectedPrior = expected;
    const receivedInterval = this.receivedCount - this.receivedPrior;
    this.receivedPrior = this.receivedCount;
    const lostInterval = expectedInterval - receivedInterval;
    const fractionLost =
      expectedInterval === 0 || lostInterval <= 0 ? 0 : Math.floor((lostInterval << 8) / expectedInterval);
    const cumulative = Math.max(-0x800000, Math.min(0x7fffff, expected - this.receivedCount));
    return { fractionLost, cumulativeLost: cumulative };
  }
}
