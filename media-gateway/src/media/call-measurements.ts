import { MonotonicClock } from './clock';
import { estimateMos } from './emodel';
import { PacedFrameInfo } from './frame-pacer';
import { G711Codec, codecUsedName } from './g711';
import { ProcessingMeter } from './processing-meter';
import { ReceiveStats } from './receive-stats';
import { Turn, TurnTracker, TurnTrackerOptions } from './turn-tracker';
import { EnergyVad, TrunkVadSettings, VadEvent, resolveVad } from './vad';

/** The media part of a call record (api.md names), from one call's measurements. */
export interface CallMediaRecord {
  turns: Turn[];
  ai_latency_ms: number | null;
  gateway_processing_ms: number | null;
  jitter_ms: number | null;
  packet_loss_percent: number | null;
  codec_used: string;
  carrier_lag_ms: number | null;
  mos: number | null;
}

export interface CallerFrameResult {
  vad: VadEvent | null;
  /** The caller started speaking over agent audio: flush nothing yourself, tell the agent (agent.interrupt()). */
  bargeIn: boolean;
}

/**
 * Everything a call measures, behind five calls: callerFrame (each caller RTP packet), callerFrameForwarded
 * (after agent.sendAudio), agentFrameSent (pacer onFrame), agentIdle (pacer onIdle), agentCleared (agent
 * `clear`); then finish(). Agent turns end on empty pacer slots, not on wall-clock gaps (TurnTracker idle-slots).
 */
export class CallMeasurements {
  readonly receive = new ReceiveStats(8000);
  readonly vad: EnergyVad;
  readonly turns: TurnTracker;
  /** RTP in → agent out, and agent in → RTP out beyond pacing. */
  readonly toAgent = new ProcessingMeter();
  readonly toCaller = new ProcessingMeter();

  constructor(
    private readonly codec: G711Codec,
    vad: TrunkVadSettings | null | undefined,
    private readonly clock: MonotonicClock,
    turnOptions: TurnTrackerOptions = {},
  ) {
    this.vad = new EnergyVad(resolveVad(vad));
    this.turns = new TurnTracker({ gapBy: 'idle-slots', ...turnOptions });
  }

  /** A caller audio packet, its payload already mu-law (transcode PCMA first), stamped at arrival. */
  callerFrame(sequenceNumber: number, rtpTimestamp: number, mulaw: Uint8Array, arrivalMs: number): CallerFrameResult {
    this.receive.onPacket(sequenceNumber, rtpTimestamp, arrivalMs);
    const event = this.vad.pushMulaw(mulaw, arrivalMs);
    let bargeIn = false;
    if (event?.type === 'speech_start') {
      bargeIn = this.turns.agentSpeaking(event.atMs);
      this.turns.callerSpeechStarted(event.atMs);
    } else if (event?.type === 'speech_end') {
      this.turns.callerSpeechEnded(event.atMs);
    }
    return { vad: event, bargeIn };
  }

  /** The frame that arrived at `arrivalMs` has been handed to the agent. */
  callerFrameForwarded(arrivalMs: number): void {
    this.toAgent.add(this.clock.nowMs() - arrivalMs);
  }

  /** From the pacer's onFrame, after the RTP packet was written to the socket. */
  agentFrameSent(info: PacedFrameInfo): void {
    this.turns.agentFrameSent(info.sentMs);
    this.toCaller.add(info.heldMs + (this.clock.nowMs() - info.sentMs));
  }

  /** From the pacer's onIdle: a slot that found no agent audio queued ends a pause; a stall-skipped one does not. */
  agentIdle(skipped = false): void {
    if (!skipped) this.turns.agentIdle();
  }

  agentCleared(atMs: number = this.clock.nowMs()): void {
    this.turns.agentCleared(atMs);
  }

  /**
   * The record's media fields at call end. `roundTripMs`: RtcpSession.meanRoundTripMs() (null without RTCP);
   * carrier_lag_ms is half of it (one way). The MOS assumes no carrier delay when there was no RTCP.
   */
  finish(roundTripMs: number | null, atMs: number = this.clock.nowMs()): CallMediaRecord {
    const end = this.vad.flush(atMs);
    if (end?.type === 'speech_end') this.turns.callerSpeechEnded(end.atMs);
    const { turns, ai_latency_ms } = this.turns.finish(atMs);
    const s = this.receive.snapshot();
    const all = new ProcessingMeter();
    all.merge(this.toAgent);
    all.merge(this.toCaller);
    const mean = all.mean();
    const carrierLag = roundTripMs === null ? null : roundTripMs / 2;
    const hasAudio = s.expected > 0;
    return {
      turns,
      ai_latency_ms,
      gateway_processing_ms: mean === null ? null : Math.round(mean),
      jitter_ms: hasAudio ? Math.round(s.meanJitterMs) : null,
      packet_loss_percent: hasAudio ? Math.round(s.lossPercent * 100) / 100 : null,
      codec_used: codecUsedName(this.codec),
      carrier_lag_ms: carrierLag === null ? null : Math.round(carrierLag),
      mos: hasAudio
        ? estimateMos({
            codec: this.codec,
            oneWayDelayMs: carrierLag ?? 0,
            jitterMs: s.meanJitterMs,
            packetLossPercent: s.lossPercent,
          })
        : null,
    };
  }
}
