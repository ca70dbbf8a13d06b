import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import type { Logger } from 'pino';
import type { Settings } from '../settings';
import { AgentLeg, AgentMediaLegs } from './media-leg';
import {
  AgentConnectError,
  MediaLeg,
  MediaLegEvents,
  MediaLegFactory,
  MediaLegOptions,
  MediaRemote,
  MediaSummary,
} from './ports';
import { RtpPair, RtpPorts } from './rtp-ports';

/**
 * Calls' media in this thread: each call's RTP/RTCP sockets, its agent leg and the shared pacer
 * tick live on this thread's event loop. The gateway runs one of these on the main thread
 * (MEDIA_WORKERS=0) or one per media worker, each on its own slice of the RTP port range.
 */
export class LocalMediaLegs implements MediaLegFactory {
  private readonly pairs = new Map<number, RtpPair>();
  private readonly legs = new Set<BridgedMedia>();
  private readonly ports: RtpPorts;

  constructor(
    private readonly settings: Settings,
    private readonly log: Logger,
    private readonly agents: AgentMediaLegs = new AgentMediaLegs(settings, log),
  ) {
    this.ports = new RtpPorts(settings.rtpHost, settings.rtpPortMin, settings.rtpPortMax);
    if (settings.loopReportMs > 0) this.reportLoop(settings.loopReportMs);
  }

  /**
   * Every `everyMs`, a `media loop` log line: this thread's calls and its event-loop delay (p99, max),
   * the figure that says whether frames leave on time (docs/media-gateway.md, "Media workers").
   */
  private reportLoop(everyMs: number): void {
    const delay = monitorEventLoopDelay({ resolution: 1 });
    delay.enable();
    setInterval(() => {
      this.log.info(
        {
          calls: this.legs.size,
          loop_delay_p99_ms: Math.round(delay.percentile(99) / 1e4) / 100,
          loop_delay_max_ms: Math.round(delay.max / 1e4) / 100,
        },
        'media loop',
      );
      delay.reset();
    }, everyMs).unref();
  }

  get active(): number {
    return this.legs.size;
  }

  async takePort(): Promise<number | null> {
    const pair = await this.ports.take();
    if (!pair) return null;
    this.pairs.set(pair.port, pair);
    return pair.port;
  }

  release(port: number): void {
    const pair = this.pairs.get(port);
    if (!pair) return;
    this.pairs.delete(port);
    this.ports.release(pair);
  }

  async open(
    port: number,
    options: MediaLegOptions,
    events: MediaLegEvents,
    timeoutMs: number,
    signal: AbortSignal,
  ): Promise<MediaLeg> {
    const pair = this.pairs.get(port);
    if (!pair) throw new AgentConnectError('agent_error', true, 503, 'No RTP port', `port ${port} not taken`);
    const leg = new BridgedMedia(pair, options, events, this.settings.mediaTimeoutMs, this.log, () => {
      this.legs.delete(leg);
      this.release(port);
    });
    try {
      const agent = await this.agents.open(
        {
          ...options,
          sendRtp: (packet) => leg.send(packet, false),
          sendRtcp: (packet) => leg.send(packet, true),
          onAgentEnd: (reason, failure) => leg.end(reason, failure),
          startedAt: options.startedAtEpochMs - performance.timeOrigin,
        },
        timeoutMs,
        signal,
      );
      leg.attach(agent);
    } catch (error) {
      this.release(port);
      throw error;
    }
    this.legs.add(leg);
    return leg;
  }

  /** Every leg of this thread ends (process stop); their calls hear of it through onEnd. */
  closeAll(): void {
    for (const leg of [...this.legs]) void leg.close();
  }
}

/**
 * One call's RTP side: the socket pair it owns, the caller's negotiated address (RTP from anywhere
 * else is ignored and counted), hold, and the media timeout; packets go to and come from its agent leg.
 */
class BridgedMedia implements MediaLeg {
  private agent: AgentLeg | null = null;
  private remote: MediaRemote;
  private lastRtpAt = performance.now();
  private watch: NodeJS.Timeout | null = null;
  private dropped = 0;
  private closed: Promise<MediaSummary | null> | null = null;

  constructor(
    private readonly pair: RtpPair,
    private readonly options: MediaLegOptions,
    private readonly events: MediaLegEvents,
    private readonly mediaTimeoutMs: number,
    private readonly log: Logger,
    private readonly released: () => void,
  ) {
    this.remote = options.remote;
    pair.rtp.on('message', (packet, from) => this.onRtp(packet, from.address, false));
    pair.rtcp.on('message', (packet, from) => this.onRtp(packet, from.address, true));
  }

  attach(agent: AgentLeg): void {
    this.agent = agent;
    agent.hold(this.remote.held);
    this.lastRtpAt = performance.now();
    this.watchMedia();
  }

  update(remote: MediaRemote): void {
    this.remote = remote;
    this.agent?.hold(remote.held);
    this.lastRtpAt = performance.now();
  }

  send(packet: Buffer, rtcp: boolean): void {
    const r = this.remote;
    if (this.closed || r.held || r.address === '0.0.0.0') return;
    (rtcp ? this.pair.rtcp : this.pair.rtp).send(packet, r.port + (rtcp ? 1 : 0), r.address);
  }

  /** The media side ends the call: the call hears it (and sends BYE), then closes this leg. */
  end(reason: Parameters<MediaLegEvents['onEnd']>[0], failure?: Parameters<MediaLegEvents['onEnd']>[1]): void {
    if (!this.closed) this.events.onEnd(reason, failure);
  }

  close(): Promise<MediaSummary | null> {
    if (this.closed) return this.closed;
    let summary: MediaSummary | null = null;
    if (this.watch) clearTimeout(this.watch);
    try {
      summary = this.agent?.summary() ?? null;
      this.agent?.close();
    } catch (error) {
      this.log.error({ call: this.options.recordId, err: (error as Error).message }, 'closing the media leg failed');
    }
    this.closed = Promise.resolve(summary);
    this.released();
    return this.closed;
  }

  /** RTP from anywhere but the negotiated address is ignored (counted); from there, it is the call's audio. */
  private onRtp(packet: Buffer, address: string, rtcp: boolean): void {
    if (this.closed || !this.agent) return;
    if (address !== this.remote.address) {
      if (!rtcp && this.dropped++ % 500 === 0)
        this.log.warn({ call: this.options.recordId, source: address }, 'RTP from an unexpected address ignored');
      return;
    }
    const now = performance.now();
    try {
      if (rtcp) return this.agent.rtcp(packet, now);
      this.lastRtpAt = now;
      this.agent.rtp(packet, now);
    } catch (error) {
      // An error inside this call's media ends this call only.
      this.log.error({ call: this.options.recordId, err: (error as Error).message }, 'media failure; ending the call');
      this.end('agent_error');
    }
  }

  /** No RTP for MEDIA_TIMEOUT_MS while not on hold: the call ends with media_timeout. */
  private watchMedia(): void {
    const every = Math.min(1_000, this.mediaTimeoutMs / 2);
    const check = () => {
      this.watch = null;
      if (this.closed) return;
      if (this.remote.held) this.lastRtpAt = performance.now();
      else if (performance.now() - this.lastRtpAt >= this.mediaTimeoutMs) return this.end('media_timeout');
      this.watch = setTimeout(check, every);
    };
    this.watch = setTimeout(check, every);
  }
}
