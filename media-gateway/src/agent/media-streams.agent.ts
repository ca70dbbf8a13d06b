import { randomBytes } from 'node:crypto';
import type WebSocket from 'ws';
import { sanitizedTarget } from './agent-failure';
import { OpenSocketOptions } from './media-streams.connect';
import { parseAgentMessage } from './media-streams.messages';
import { SocketAgent, SocketAgentSettings } from './socket-agent';

/** connectTimeoutMs: until the WebSocket is open (default 5000 ms). */
export interface MediaStreamsAgentOptions extends SocketAgentSettings {
  /** The trunk's custom_endpoint (ws:// or wss://). Never logged beyond scheme, host and path. */
  url: string;
  /** PEM CA(s) to trust for a wss:// agent in addition to the system's (self-signed test agents). */
  ca?: string | Buffer | Array<string | Buffer>;
  /** Agent messages larger than this are dropped (counted, logged once). Default 64 KiB. */
  maxMessageBytes?: number;
}

/** Larger messages than this close the socket (ws maxPayload): memory stays bounded whatever the agent sends. */
const HARD_LIMIT_FACTOR = 16;

/**
 * The custom agent over the bidirectional Media Streams protocol (Twilio's JSON events): we play the
 * telephony side, sending connected, start, media (caller audio, base64 mu-law 8 kHz), dtmf, mark
 * (played) and stop; the agent sends media, mark and clear.
 */
export class MediaStreamsAgent extends SocketAgent {
  private readonly streamSid = `MZ${randomBytes(16).toString('hex')}`;
  private sequence = 0;
  private chunk = 0;
  private startedMs = 0;

  constructor(private readonly options: MediaStreamsAgentOptions) {
    super(options);
  }

  protected logContext(): { agent: string; callId: string | undefined } {
    return { agent: sanitizedTarget(this.options.url), callId: this.call?.callId };
  }

  protected socketOptions(timeoutMs: number): OpenSocketOptions {
    const max = this.options.maxMessageBytes ?? 64 * 1024;
    return {
      url: this.options.url,
      timeoutMs,
      ca: this.options.ca,
      maxPayloadBytes: Math.max(max * HARD_LIMIT_FACTOR, 1024 * 1024),
    };
  }

  /** The agent is open with the socket: connected, then start. */
  protected opened(ws: WebSocket): void {
    this.state = 'open';
    this.startedMs = this.clock.nowMs();
    this.attach(ws);
    this.sendStart();
  }

  protected audioMessage(payload: string): string {
    this.chunk++;
    const timestamp = Math.round(this.clock.nowMs() - this.startedMs);
    // Built by hand: this runs 50 times a second per call; every value is a number, a base64 or our own id.
    return (
      `{"event":"media","sequenceNumber":"${this.nextSequence()}","media":{"track":"inbound","chunk":"${this.chunk}",` +
      `"timestamp":"${timestamp}","payload":"${payload}"},"streamSid":"${this.streamSid}"}`
    );
  }

  sendDtmf(digit: string): void {
    this.sendEvent('dtmf', { dtmf: { track: 'inbound_track', digit } });
  }

  markPlayed(name: string): void {
    this.sendEvent('mark', { mark: { name } });
  }

  protected override goodbye(): void {
    this.sendEvent('stop', { stop: { accountSid: this.accountSid, callSid: this.callSid } });
  }

  private attach(ws: WebSocket): void {
    ws.removeAllListeners('error');
    ws.on('message', (data, isBinary) => this.onMessage(data, isBinary));
    ws.on('error', (error) => {
      this.logOnce('socket-error', { error: error.message }, 'agent socket error');
      if (this.state === 'open') this.emitClosed({ by: 'error', reason: error.message });
      this.state = 'closed';
    });
    ws.on('close', (code, reason) => {
      // A close frame (1000 normal, 1001 going away) is the agent hanging up; anything else (1006: the
      // socket dropped without one) is the agent failing.
      const by = code === 1000 || code === 1001 ? 'agent' : 'error';
      if (this.state === 'open') this.emitClosed({ by, reason: reason.toString() || 'closed', code });
      this.state = 'closed';
    });
    ws.send(JSON.stringify({ event: 'connected', protocol: 'Call', version: '1.0.0' }));
  }

  private get callSid(): string {
    return this.call?.callId ?? '';
  }

  private get accountSid(): string {
    return this.call?.accountId ?? '';
  }

  private sendStart(): void {
    const call = this.call!;
    this.sendEvent('start', {
      start: {
        streamSid: this.streamSid,
        accountSid: this.accountSid,
        callSid: call.callId,
        tracks: ['inbound'],
        customParameters: { trunk_id: call.trunkId, from: call.from, to: call.to, ...call.customParameters },
        mediaFormat: { encoding: 'audio/x-mulaw', sampleRate: 8000, channels: 1 },
      },
    });
  }

  private sendEvent(event: string, body: Record<string, unknown>): void {
    if (this.state !== 'open' || !this.ws) return;
    this.ws.send(
      JSON.stringify({ event, sequenceNumber: String(this.nextSequence()), ...body, streamSid: this.streamSid }),
    );
  }

  private nextSequence(): number {
    return ++this.sequence;
  }

  private onMessage(data: WebSocket.RawData, isBinary: boolean): void {
    if (this.state !== 'open') return;
    const buffer = Array.isArray(data) ? Buffer.concat(data) : Buffer.isBuffer(data) ? data : Buffer.from(data);
    const message = parseAgentMessage(buffer, isBinary, this.options.maxMessageBytes ?? 64 * 1024);
    if ('drop' in message) {
      if (message.drop === 'oversized') this.counters.messagesDroppedOversized++;
      else this.counters.messagesDroppedInvalid++;
      this.logOnce(message.drop, { bytes: buffer.byteLength }, `agent message dropped (${message.drop})`);
      return;
    }
    if (message.event === 'media') {
      this.counters.framesReceived += this.reframer.push(message.audio);
    } else if (message.event === 'mark') {
      // A mark follows all audio before it: a waiting tail is sent, padded, first.
      this.counters.framesReceived += this.reframer.flushPadded();
      this.emit('mark', message.name);
    } else {
      this.reframer.reset();
      this.emit('clear');
    }
  }
}
