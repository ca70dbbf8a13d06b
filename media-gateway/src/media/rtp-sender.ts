import { randomInt } from 'node:crypto';
import { writeRtp } from './rtp';

export interface RtpSenderOptions {
  payloadType: number;
  /** Random when absent (RFC 3550 §5.1: SSRC, initial sequence number and timestamp are random). */
  ssrc?: number;
  sequenceNumber?: number;
  timestamp?: number;
  /** Largest payload this sender writes; the output buffer is allocated once from it. Default 1200. */
  maxPayloadBytes?: number;
}

/**
 * One outgoing RTP stream: owns the SSRC, sequence number and timestamp, and one output buffer.
 * Each packet method returns a view of that buffer, valid until the next call (send it first).
 * Counts packets and payload octets for the RTCP sender report (RFC 3550 §6.4.1).
 */
export class RtpSender {
  readonly ssrc: number;
  readonly payloadType: number;
  private sequence: number;
  private nextTimestamp: number;
  private readonly buffer: Buffer;
  private resumed = true;
  packetsSent = 0;
  octetsSent = 0;

  constructor(options: RtpSenderOptions) {
    this.payloadType = options.payloadType;
    this.ssrc = (options.ssrc ?? randomInt(0, 2 ** 32 - 1)) >>> 0;
    this.sequence = (options.sequenceNumber ?? randomInt(0, 65536)) & 0xffff;
    this.nextTimestamp = (options.timestamp ?? randomInt(0, 2 ** 32 - 1)) >>> 0;
    this.buffer = Buffer.alloc(12 + (options.maxPayloadBytes ?? 1200));
  }

  /** RTP timestamp the next audio packet carries. */
  get timestamp(): number {
    return this.nextTimestamp;
  }

  /**
   * The next audio packet; the timestamp then advances by `samples` (the payload length for G.711).
   * The marker bit is set on the first packet after `skip` (start of a talkspurt, RFC 3551 §4.1).
   */
  audio(payload: Uint8Array, samples: number = payload.length): Buffer {
    const length = writeRtp(
      this.buffer,
      {
        marker: this.resumed,
        payloadType: this.payloadType,
        sequenceNumber: this.sequence,
        timestamp: this.nextTimestamp,
        ssrc: this.ssrc,
      },
      payload,
    );
    this.resumed = false;
    this.sequence = (this.sequence + 1) & 0xffff;
    this.nextTimestamp = (this.nextTimestamp + samples) >>> 0;
    this.count(payload.length);
    return this.buffer.subarray(0, length);
  }

  /** A slot with nothing to send: the timestamp keeps time (§5.1), the sequence number does not move. */
  skip(samples: number): void {
    this.nextTimestamp = (this.nextTimestamp + samples) >>> 0;
    this.resumed = true;
  }

  /**
   * A packet with another payload type at a given timestamp, e.g. an RFC 4733 telephone-event whose
   * packets all carry the event's start timestamp (RFC 4733 §2.5.1.2). Does not advance the audio timestamp.
   */
  packet(payload: Uint8Array, payloadType: number, timestamp: number, marker: boolean): Buffer {
    const length = writeRtp(
      this.buffer,
      { marker, payloadType, sequenceNumber: this.sequence, timestamp: timestamp >>> 0, ssrc: this.ssrc },
      payload,
    );
    this.sequence = (this.sequence + 1) & 0xffff;
    this.count(payload.length);
    return this.buffer.subarray(0, length);
  }

  private count(payloadBytes: number): void {
    this.packetsSent = (this.packetsSent + 1) >>> 0;
    this.octetsSent = (this.octetsSent + payloadBytes) >>> 0;
  }
}
