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

/** What a call's media leg is given: the negotiated stream, the trunk, and how to put packets on the wire. */
export interface MediaLegOptions {
  callId: string;
  recordId: string;
  from: string;
  to: string;
  trunk: TrunkAgent;
  codec: Codec;
  payloadType: number;
  dtmfPayloadType: number | null;
  /** Sends an RTP packet to the caller's negotiated address (or RTCP to its RTCP port). */
  sendRtp(packet: Buffer): void;
  sendRtcp(packet: Buffer): void;
  /** The agent hung up or failed after the answer: the call sends BYE and ends with this reason. */
  onAgentEnd(
    reason: 'agent_hangup' | 'agent_error',
    failure?: { failureClass: AgentFailureClass; retryable: boolean },
  ): void;
  /** Monotonic time (performance.now()) the call's start_time corresponds to, for turn offsets. */
  startedAt: number;
}

/** The media of one call: RTP in → agent, agent → paced RTP out, and the measurements. */
export interface MediaLeg {
  /** An RTP packet from the caller's negotiated address. */
  rtp(packet: Buffer, arrivalMs: number): void;
  rtcp(packet: Buffer, arrivalMs: number): void;
  /** Hold (re-INVITE sendonly/inactive): nothing is sent to the caller, and silence is not a media timeout. */
  hold(held: boolean): void;
  /** Stops timers, closes the agent with a `stop`; idempotent. */
  close(): void;
  summary(): MediaSummary;
}

export interface MediaLegFactory {
  /** Connects the agent (rejects with AgentConnectError), resolving once it can take audio; `signal` abandons it (CANCEL). */
  open(options: MediaLegOptions, timeoutMs: number, signal: AbortSignal): Promise<MediaLeg>;
}
