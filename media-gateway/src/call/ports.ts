import type { Codec } from '../sip/sdp';
import type { TrunkAgent } from '../trunkline/trunks';

/**
 * How an agent connection failed before the answer: what the carrier hears (a final response and its
 * reason phrase) and what the record and the rejection say (failure class, retryable).
 */
export type AgentFailureClass = 'agent_timeout' | 'agent_error' | 'agent_unreachable' | 'agent_auth' | 'agent_quota';

export class AgentConnectError extends Error {
  constructor(
    readonly failureClass: AgentFailureClass,
    readonly retryable: boolean,
    /** The SIP final response: 480 when the agent did not answer in time, else 503. */
    readonly sipCode: 480 | 503,
    /** Its reason phrase: says why in a few words, no secret, no URL. */
    readonly phrase: string,
    message: string,
  ) {
    super(message);
  }
}

/** The turn list, latency and quality a call's media produced, as its record reports them. */
export interface MediaSummary {
  turns: {
    turn_number: number;
    speaker: 'caller' | 'agent';
    duration_ms: number;
    processing_time_ms: number;
    interrupted?: boolean;
    start_offset_ms?: number | null;
  }[];
  ai_latency_ms: number | null;
  gateway_processing_ms: number | null;
  jitter_ms: number | null;
  packet_loss_percent: number | null;
  carrier_lag_ms: number | null;
  mos: number | null;
  codec_used: string;
  /** Frames the caller was sent. */
  frames_sent: number;
  /** For the log (and bench:media): p99 of the time a frame was held (both directions), the worst lateness past a 20 ms slot, frames more than a slot late. */
  processing_p99_ms: number | null;
  max_lateness_ms: number;
  late_frames: number;
}

/** Where the caller's RTP goes, and whether the call is on hold, as the last offer/answer said (RFC 3264). */
export interface MediaRemote {
  address: string;
  port: number;
  /** sendonly / inactive: nothing is sent to the caller, and silence is not a media timeout. */
  held: boolean;
}

/** Why the media side ends a call on its own: the agent hung up or failed, a media failure, or no RTP. */
export type MediaEndReason = 'agent_hangup' | 'agent_error' | 'media_timeout';

/**
 * What a call's media leg is given: the negotiated stream, the trunk, where the caller is. Plain
 * data only, so a worker thread can take it (docs/media-gateway.md, "Media workers").
 */
export interface MediaLegOptions {
  callId: string;
  recordId: string;
  from: string;
  to: string;
  trunk: TrunkAgent;
  codec: Codec;
  payloadType: number;
  dtmfPayloadType: number | null;
  remote: MediaRemote;
  /** Wall-clock ms (performance.timeOrigin + performance.now()) the call's start_time corresponds to, for turn offsets. */
  startedAtEpochMs: number;
}

export interface MediaLegEvents {
  /** The media side ended the call (agent hangup or failure, media timeout, a worker lost): the call sends BYE. */
  onEnd(reason: MediaEndReason, failure?: { failureClass: AgentFailureClass; retryable: boolean }): void;
}

/** The media of one call: its RTP sockets, RTP in → agent, agent → paced RTP out, and the measurements. */
export interface MediaLeg {
  /** A re-INVITE's new remote address and direction. */
  update(remote: MediaRemote): void;
  /** Stops timers, closes the agent with a `stop` and the RTP sockets; idempotent. The summary, or null when it was lost. */
  close(): Promise<MediaSummary | null>;
}

export interface MediaLegFactory {
  /** Binds an RTP/RTCP port pair for a call (null when none is free); `open` or `release` takes it back. */
  takePort(): Promise<number | null>;
  release(port: number): void;
  /**
   * Connects the agent on the port taken (rejects with AgentConnectError, the port released),
   * resolving once it can take audio; `signal` abandons it (CANCEL).
   */
  open(
    port: number,
    options: MediaLegOptions,
    events: MediaLegEvents,
    timeoutMs: number,
    signal: AbortSignal,
  ): Promise<MediaLeg>;
}
