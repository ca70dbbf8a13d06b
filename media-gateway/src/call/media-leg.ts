import type { Logger } from 'pino';
import { AgentConnectError as AgentPortConnectError, AgentPort } from '../agent/agent.port';
import { ElevenLabsConvaiAgent } from '../agent/elevenlabs-convai.agent';
import { MediaStreamsAgent } from '../agent/media-streams.agent';
import { OpenAiRealtimeAgent } from '../agent/openai-realtime.agent';
import {
  alawToMulaw,
  CallMeasurements,
  DtmfReceiver,
  FramePacer,
  g711PayloadType,
  monotonicClock,
  mulawToAlaw,
  newRtpHeader,
  PacerDriver,
  ProcessingMeter,
  parseRtpInto,
  RtcpSession,
  RtpSender,
} from '../media';
import type { Settings } from '../settings';
import type { TrunkAgent } from '../trunkline/trunks';
import { AgentConnectError, AgentFailureClass, MediaLegOptions, MediaSummary } from './ports';

/** What the agent side of a call is given by the RTP side (BridgedMedia) that owns the sockets. */
export interface AgentLegOptions extends Omit<MediaLegOptions, 'remote' | 'startedAtEpochMs'> {
  /** Sends an RTP packet to the caller's negotiated address (or RTCP to its RTCP port). */
  sendRtp(packet: Buffer): void;
  sendRtcp(packet: Buffer): void;
  /** The agent hung up or failed after the answer. */
  onAgentEnd(
    reason: 'agent_hangup' | 'agent_error',
    failure?: { failureClass: AgentFailureClass; retryable: boolean },
  ): void;
  /** Monotonic time (this thread's performance.now()) the call's start_time corresponds to. */
  startedAt: number;
}

/** The agent side of one call's media: caller packets in, the agent's audio paced out, the measurements. */
export interface AgentLeg {
  rtp(packet: Buffer, arrivalMs: number): void;
  rtcp(packet: Buffer, arrivalMs: number): void;
  hold(held: boolean): void;
  close(): void;
  summary(): MediaSummary;
}

const clock = monotonicClock;
const RTCP_EVERY_MS = 5_000;
const G711_FRAME = 160;

/** Media legs of every provider: a Media Streams WebSocket (custom), OpenAI Realtime or ElevenLabs Conversational AI. */
export class AgentMediaLegs {
  /** One drift-corrected 20 ms timer for every call's pacer: 200 calls wake the process 50 times a second, not 10,000. */
  private readonly driver = new PacerDriver(clock);

  constructor(
    private readonly settings: Settings,
    private readonly log: Logger,
  ) {}

  async open(options: AgentLegOptions, timeoutMs: number, signal: AbortSignal): Promise<AgentLeg> {
    const agent = this.agentFor(options.trunk, timeoutMs);
    try {
      await agent.connect(
        {
          callId: options.recordId,
          trunkId: options.trunk.trunkId,
          accountId: options.trunk.accountId,
          from: options.from,
          to: options.to,
        },
        signal,
      );
    } catch (error) {
      void agent.close('connect_failed').catch(() => undefined);
      throw connectFailure(error);
    }
    return new AgentMediaLeg(agent, options, this.log, this.driver);
  }

  /** The trunk's provider behind the one agent port (docs/media-gateway.md, "Agents"). */
  private agentFor(trunk: TrunkAgent, timeoutMs: number): AgentPort {
    const common = {
      connectTimeoutMs: timeoutMs,
      ...(this.settings.agentCa ? { ca: this.settings.agentCa } : {}),
      logger: this.log,
    };
    const settings = trunk.providerSettings ?? {};
    const text = (value: unknown): string | null => (typeof value === 'string' && value ? value : null);
    switch (trunk.provider) {
      case 'openai':
        if (!trunk.openaiApiKey)
          throw new AgentConnectError('agent_auth', false, 503, 'Agent key missing', 'no openai_api_key');
        return new OpenAiRealtimeAgent(
          {
            url: this.settings.openaiUrl,
            apiKey: trunk.openaiApiKey,
            model: text(settings.model),
            voice: text(settings.voice),
            instructions: trunk.systemPrompt,
            vad: trunk.vad,
          },
          common,
        );
      case 'elevenlabs':
        if (!trunk.elevenlabsApiKey || !trunk.elevenlabsAgentId)
          throw new AgentConnectError('agent_auth', false, 503, 'Agent key missing', 'no elevenlabs key or agent id');
        return new ElevenLabsConvaiAgent(
          {
            url: this.settings.elevenlabsUrl,
            apiKey: trunk.elevenlabsApiKey,
            agentId: trunk.elevenlabsAgentId,
            prompt: trunk.systemPrompt,
            voice: text(settings.voice),
          },
          common,
        );
      default:
        if (!trunk.customEndpoint)
          throw new AgentConnectError('agent_error', false, 503, 'Agent endpoint missing', 'no custom_endpoint');
        return new MediaStreamsAgent({ url: trunk.customEndpoint, ...common });
    }
  }
}

/** What the carrier hears and the record says when the agent could not be connected (docs/media-gateway.md, "Agent failures"). */
export function connectFailure(error: unknown): AgentConnectError {
  if (error instanceof AgentConnectError) return error;
  if (!(error instanceof AgentPortConnectError))
    return new AgentConnectError('agent_unreachable', true, 503, 'Agent unreachable', (error as Error).message);
  const { failureClass, retryable, reason } = error;
  switch (failureClass) {
    case 'agent_timeout':
      return new AgentConnectError('agent_timeout', retryable, 480, 'Agent did not answer', reason);
    case 'agent_auth':
      return new AgentConnectError('agent_auth', false, 503, 'Agent authentication refused', reason);
    case 'agent_quota':
      return new AgentConnectError(
        'agent_quota',
        retryable,
        503,
        retryable ? 'Agent rate limited' : 'Agent quota exhausted',
        reason,
      );
    default:
      // A socket, DNS or connection error before any answer: unreachable; an answer that refused: refused.
      if (/unreachable|host not found|connection failed/.test(reason))
        return new AgentConnectError('agent_unreachable', retryable, 503, 'Agent unreachable', reason);
      if (/no such model or agent|HTTP 404/.test(reason))
        return new AgentConnectError('agent_error', false, 503, 'Agent not found', reason);
      if (/protocol error|audio formats|before the session was ready|to the WebSocket upgrade/.test(reason))
        return new AgentConnectError('agent_error', retryable, 503, 'Agent protocol error', reason);
      return new AgentConnectError('agent_error', retryable, 503, 'Agent refused', reason);
  }
}

/**
 * One call's media (docs/media-gateway.md, "Media path"): caller RTP → parse → (A-law → µ-law) →
 * measurements (receive stats, VAD, turns) → agent; agent audio → pacer (20 ms slots) →
 * (µ-law → A-law) → RTP. Buffers for the hot path are allocated once per call.
 */
class AgentMediaLeg implements AgentLeg {
  private readonly header = newRtpHeader();
  private readonly measured: CallMeasurements;
  private readonly sender: RtpSender;
  private readonly rtcpSession: RtcpSession;
  private readonly dtmf = new DtmfReceiver();
  private readonly pacer: FramePacer;
  private readonly mulawIn = new Uint8Array(G711_FRAME);
  private readonly alawOut = new Uint8Array(G711_FRAME);
  private rtcpTimer: NodeJS.Timeout | null = null;
  private remoteSsrc: number | null = null;
  badPackets = 0;
  private closed = false;
  private held = false;

  constructor(
    private readonly agent: AgentPort,
    private readonly options: AgentLegOptions,
    private readonly log: Logger,
    private readonly driver: PacerDriver,
  ) {
    this.measured = new CallMeasurements(options.codec, options.trunk.vad, clock);
    this.sender = new RtpSender({ payloadType: options.payloadType ?? g711PayloadType(options.codec) });
    this.rtcpSession = new RtcpSession(clock, this.sender, this.measured.receive);
    this.pacer = new FramePacer({
      clock,
      onFrame: (frame, info) => {
        const payload = options.codec === 'PCMA' ? mulawToAlaw(frame, this.alawOut) : frame;
        options.sendRtp(this.sender.audio(payload));
        this.measured.agentFrameSent(info);
      },
      onIdle: (_slot, skipped) => {
        this.sender.skip(G711_FRAME);
        // Only a slot that found the queue empty counts toward the gap that ends an agent turn.
        this.measured.agentIdle(skipped);
      },
      onMark: (name) => this.agent.markPlayed(name),
    });
    agent.on('audio', (frame) => {
      if (!this.held) this.pacer.push(frame);
    });
    agent.on('mark', (name) => this.pacer.pushMark(name));
    agent.on('clear', () => {
      this.pacer.flush();
      this.measured.agentCleared();
    });
    agent.on('closed', (closed) => {
      if (closed.by === 'local' || this.closed) return;
      this.log.info(
        { call: options.recordId, by: closed.by, code: closed.code, class: closed.failureClass },
        'agent ended the stream',
      );
      options.onAgentEnd(
        closed.by === 'agent' ? 'agent_hangup' : 'agent_error',
        closed.failureClass ? { failureClass: closed.failureClass, retryable: closed.retryable ?? true } : undefined,
      );
    });
    driver.add(this.pacer);
    // RTCP every 5 s (RFC 3550 §6.2's minimum interval), to the RTP port + 1.
    this.rtcpTimer = setInterval(() => options.sendRtcp(this.rtcpSession.report()), RTCP_EVERY_MS);
  }

  rtp(packet: Buffer, arrivalMs: number): void {
    if (this.closed) return;
    const header = this.header;
    if (parseRtpInto(packet, header) !== null) {
      this.badPackets++;
      return;
    }
    const payload = packet.subarray(header.payloadOffset, header.payloadOffset + header.payloadLength);
    if (header.payloadType === this.options.dtmfPayloadType) {
      const digit = this.dtmf.onPacket(header.timestamp, payload);
      if (digit) this.agent.sendDtmf(digit);
      return;
    }
    if (header.payloadType !== this.options.payloadType) {
      this.badPackets++;
      return;
    }
    if (this.remoteSsrc !== header.ssrc) {
      this.remoteSsrc = header.ssrc;
      this.rtcpSession.setRemoteSsrc(header.ssrc);
    }
    const frame =
      this.options.codec === 'PCMA'
        ? alawToMulaw(payload.length > G711_FRAME ? payload.subarray(0, G711_FRAME) : payload, this.mulawIn)
        : payload;
    const { bargeIn } = this.measured.callerFrame(header.sequenceNumber, header.timestamp, frame, arrivalMs);
    if (bargeIn) this.agent.interrupt();
    this.agent.sendAudio(frame);
    this.measured.callerFrameForwarded(arrivalMs);
  }

  /** RTCP in: round trips from report blocks about our stream (RFC 3550 §6.4.1); half of their mean is carrier_lag_ms. */
  rtcp(packet: Buffer): void {
    this.rtcpSession.receive(packet);
  }

  hold(held: boolean): void {
    this.held = held;
    if (held) this.pacer.flush();
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.driver.remove(this.pacer);
    if (this.rtcpTimer) clearInterval(this.rtcpTimer);
    void this.agent.close('call_ended').catch(() => undefined);
  }

  summary(): MediaSummary {
    const media = this.measured.finish(this.rtcpSession.meanRoundTripMs());
    return {
      ...media,
      mos: media.mos === null ? null : Math.round(media.mos * 100) / 100,
      turns: media.turns.map((t) => ({
        turn_number: t.turn_number,
        speaker: t.speaker,
        duration_ms: t.duration_ms,
        processing_time_ms: t.processing_time_ms,
        interrupted: t.interrupted,
        start_offset_ms: Math.max(0, Math.round(t.startMs - this.options.startedAt)),
      })),
      frames_sent: this.pacer.stats.sent,
      processing_p99_ms: this.processingP99(),
      max_lateness_ms: Math.round(this.pacer.stats.maxLatenessMs * 100) / 100,
      late_frames: this.pacer.stats.late,
    };
  }

  private processingP99(): number | null {
    const all = new ProcessingMeter();
    all.merge(this.measured.toAgent);
    all.merge(this.measured.toCaller);
    const p99 = all.percentile(99);
    return p99 === null ? null : Math.round(p99 * 100) / 100;
  }
}
