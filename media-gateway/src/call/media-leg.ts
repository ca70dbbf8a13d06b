import type { Logger } from 'pino';
import { AgentConnectError as AgentPortConnectError, AgentPort } from '../agent/agent.port';
import { MediaStreamsAgent } from '../agent/media-streams.agent';
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
import { AgentConnectError, MediaLeg, MediaLegFactory, MediaLegOptions, MediaSummary } from './ports';

const clock = monotonicClock;
const RTCP_EVERY_MS = 5_000;
const G711_FRAME = 160;

/** Media legs whose agent is a Media Streams WebSocket (ai_provider custom). */
export class AgentMediaLegs implements MediaLegFactory {
  /** One drift-corrected 20 ms timer for every call's pacer: 200 calls wake the process 50 times a second, not 10,000. */
  private readonly driver = new PacerDriver(clock);

  constructor(
    private readonly settings: Settings,
    private readonly log: Logger,
  ) {}

  async open(options: MediaLegOptions, timeoutMs: number, signal: AbortSignal): Promise<MediaLeg> {
    const agent = new MediaStreamsAgent({
      url: options.trunk.customEndpoint!,
      connectTimeoutMs: timeoutMs,
      ...(this.settings.agentCa ? { ca: this.settings.agentCa } : {}),
      logger: this.log,
    });
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
      if (error instanceof AgentPortConnectError) {
        // A timeout is the agent not answering (480); anything else is an agent that cannot take the call (503).
        if (error.failureClass === 'agent_timeout') throw new AgentConnectError('timeout', error.reason);
        const refused =
          error.failureClass === 'agent_auth' ||
          error.failureClass === 'agent_quota' ||
          /\b(4\d\d|5\d\d)\b/.test(error.reason);
        throw new AgentConnectError(refused ? 'refused' : 'unreachable', error.reason);
      }
      throw new AgentConnectError('unreachable', (error as Error).message);
    }
    return new AgentMediaLeg(agent, options, this.log, this.driver);
  }
}

/**
 * One call's media (docs/media-gateway.md, "Media path"): caller RTP → parse → (A-law → µ-law) →
 * measurements (receive stats, VAD, turns) → agent; agent audio → pacer (20 ms slots) →
 * (µ-law → A-law) → RTP. Buffers for the hot path are allocated once per call.
 */
class AgentMediaLeg implements MediaLeg {
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
    private readonly options: MediaLegOptions,
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
      this.log.info({ call: options.recordId, by: closed.by, code: closed.code }, 'agent ended the stream');
      options.onAgentEnd(closed.by === 'agent' ? 'agent_hangup' : 'agent_error');
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
