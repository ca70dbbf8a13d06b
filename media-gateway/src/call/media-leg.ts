import type { Logger } from 'pino';
import { AgentConnectError as AgentPortConnectError, AgentPort } from '../agent/agent.port';
import { MediaStreamsAgent } from '../agent/media-streams.agent';
import {
  alawToMulaw,
  DtmfReceiver,
  EnergyVad,
  estimateMos,
  FramePacer,
  g711PayloadType,
  monotonicClock,
  mulawToAlaw,
  newRtpHeader,
  ntpFromUnixMs,
  ntpMiddle32,
  parseRtcp,
  parseRtpInto,
  ProcessingMeter,
  ReceiveStats,
  resolveVad,
  roundTripMs,
  RtpSender,
  serializeSenderReport,
  TurnTracker,
} from '../media';
import type { Settings } from '../settings';
import { AgentConnectError, MediaLeg, MediaLegFactory, MediaLegOptions, MediaSummary } from './ports';

const clock = monotonicClock;
/** RTCP sender reports every 5 s (RFC 3550 §6.2's minimum interval). */
const RTCP_EVERY_MS = 5_000;
const G711_FRAME = 160;

/** Media legs whose agent is a Media Streams WebSocket (ai_provider custom). */
export class AgentMediaLegs implements MediaLegFactory {
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
    return new AgentMediaLeg(agent, options, this.log);
  }
}

/**
 * One call's media (docs/media-gateway.md, "Media path"): caller RTP → parse → receive stats →
 * (A-law → µ-law) → VAD/turns → agent; agent audio → pacer (20 ms slots) → (µ-law → A-law) → RTP.
 * Buffers for the hot path are allocated once per call.
 */
class AgentMediaLeg implements MediaLeg {
  private readonly header = newRtpHeader();
  private readonly received = new ReceiveStats(8000);
  private readonly vad: EnergyVad;
  private readonly turns = new TurnTracker();
  private readonly toAgent = new ProcessingMeter();
  private readonly toCaller = new ProcessingMeter();
  private readonly sender: RtpSender;
  private readonly dtmf = new DtmfReceiver();
  private readonly pacer: FramePacer;
  private readonly mulawIn = new Uint8Array(G711_FRAME);
  private readonly alawOut = new Uint8Array(G711_FRAME);
  private readonly wallAtStart = Date.now();
  private readonly monoAtStart = clock.nowMs();
  private rtcpTimer: NodeJS.Timeout | null = null;
  private remoteSsrc: number | null = null;
  private readonly roundTrips: number[] = [];
  private badPackets = 0;
  private closed = false;
  private held = false;

  constructor(
    private readonly agent: AgentPort,
    private readonly options: MediaLegOptions,
    private readonly log: Logger,
  ) {
    this.vad = new EnergyVad(resolveVad(options.trunk.vad));
    this.sender = new RtpSender({ payloadType: options.payloadType ?? g711PayloadType(options.codec) });
    this.pacer = new FramePacer({
      clock,
      onFrame: (frame, info) => {
        const payload = options.codec === 'PCMA' ? mulawToAlaw(frame, this.alawOut) : frame;
        options.sendRtp(this.sender.audio(payload));
        this.turns.agentFrameSent(info.sentMs);
        this.toCaller.add(info.heldMs);
      },
      onIdle: () => this.sender.skip(G711_FRAME),
      onMark: (name) => this.agent.markPlayed(name),
    });
    agent.on('audio', (frame) => {
      if (!this.held) this.pacer.push(frame);
    });
    agent.on('mark', (name) => this.pacer.pushMark(name));
    agent.on('clear', () => {
      this.pacer.flush();
      this.turns.agentCleared(clock.nowMs());
    });
    agent.on('closed', (closed) => {
      if (closed.by === 'local' || this.closed) return;
      this.log.info({ call: options.recordId, by: closed.by, code: closed.code }, 'agent ended the stream');
      options.onAgentEnd(closed.by === 'agent' ? 'agent_hangup' : 'agent_error');
    });
    this.pacer.start();
    this.rtcpTimer = setInterval(() => this.sendRtcp(), RTCP_EVERY_MS);
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
    this.remoteSsrc = header.ssrc;
    this.received.onPacket(header.sequenceNumber, header.timestamp, arrivalMs);
    let frame: Uint8Array = payload;
    if (this.options.codec === 'PCMA') {
      frame = alawToMulaw(payload.length === G711_FRAME ? payload : payload.subarray(0, G711_FRAME), this.mulawIn);
    }
    const event = this.vad.pushMulaw(frame, arrivalMs);
    if (event?.type === 'speech_start') {
      if (this.turns.agentSpeaking(event.atMs)) this.agent.interrupt();
      this.turns.callerSpeechStarted(event.atMs);
    } else if (event?.type === 'speech_end') {
      this.turns.callerSpeechEnded(event.atMs);
    }
    this.agent.sendAudio(frame);
    this.toAgent.add(clock.nowMs() - arrivalMs);
  }

  /** RTCP in: round trips from report blocks about our stream (RFC 3550 §6.4.1), half of which is carrier_lag_ms. */
  rtcp(packet: Buffer, arrivalMs: number): void {
    const packets = parseRtcp(packet);
    if (typeof packets === 'string') return;
    const ntp = ntpFromUnixMs(this.wallAtStart + arrivalMs - this.monoAtStart);
    const arrival = ntpMiddle32(ntp.seconds, ntp.fraction);
    for (const p of packets) {
      if (!('reports' in p)) continue;
      for (const block of p.reports) {
        if (block.ssrc !== this.sender.ssrc) continue;
        const rtt = roundTripMs(block, arrival);
        if (rtt !== null && rtt < 10_000 && this.roundTrips.length < 10_000) this.roundTrips.push(rtt);
      }
    }
  }

  hold(held: boolean): void {
    this.held = held;
    if (held) this.pacer.flush();
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.pacer.stop();
    if (this.rtcpTimer) clearInterval(this.rtcpTimer);
    void this.agent.close('call_ended').catch(() => undefined);
  }

  summary(): MediaSummary {
    const now = clock.nowMs();
    const end = this.vad.flush(now);
    if (end?.type === 'speech_end') this.turns.callerSpeechEnded(end.atMs);
    const { turns, ai_latency_ms } = this.turns.finish(now);
    const stats = this.received.snapshot();
    const all = new ProcessingMeter();
    all.merge(this.toAgent);
    all.merge(this.toCaller);
    const carrierLag =
      this.roundTrips.length > 0
        ? Math.round(this.roundTrips.reduce((a, b) => a + b, 0) / this.roundTrips.length / 2)
        : null;
    const heard = stats.received > 0;
    const loss = heard ? Math.round(stats.lossPercent * 100) / 100 : null;
    const jitter = heard ? stats.meanJitterMs : null;
    return {
      turns: turns.map((t) => ({
        turn_number: t.turn_number,
        speaker: t.speaker,
        duration_ms: t.duration_ms,
        processing_time_ms: t.processing_time_ms,
        interrupted: t.interrupted,
        start_offset_ms: Math.max(0, Math.round(t.startMs - this.options.startedAt)),
      })),
      ai_latency_ms,
      gateway_processing_ms: all.mean() === null ? null : Math.round(all.mean()!),
      jitter_ms: jitter === null ? null : Math.round(jitter),
      packet_loss_percent: loss,
      carrier_lag_ms: carrierLag,
      mos: heard
        ? Math.round(
            estimateMos({
              codec: this.options.codec,
              oneWayDelayMs: carrierLag ?? 0,
              jitterMs: jitter ?? 0,
              packetLossPercent: loss ?? 0,
            }) * 100,
          ) / 100
        : null,
      frames_sent: this.pacer.stats.sent,
    };
  }

  /** A sender report every few seconds, so a carrier that sends RTCP can report round trips. */
  private sendRtcp(): void {
    if (this.closed || this.sender.packetsSent === 0) return;
    const now = Date.now();
    const ntp = ntpFromUnixMs(now);
    const stats = this.received.snapshot();
    this.options.sendRtcp(
      serializeSenderReport({
        ssrc: this.sender.ssrc,
        ntpSeconds: ntp.seconds,
        ntpFraction: ntp.fraction,
        rtpTimestamp: this.sender.timestamp,
        packetCount: this.sender.packetsSent,
        octetCount: this.sender.octetsSent,
        reports:
          this.remoteSsrc === null
            ? []
            : [
                {
                  ssrc: this.remoteSsrc,
                  ...this.received.intervalLoss(),
                  extendedHighestSequence: stats.extendedHighestSequence,
                  jitter: Math.round(stats.jitterMs * 8),
                  lastSenderReport: 0,
                  delaySinceLastSenderReport: 0,
                },
              ],
      }),
    );
  }
}
