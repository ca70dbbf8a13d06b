import { randomBytes } from 'node:crypto';
import WebSocket from 'ws';
import type { MonotonicClock } from '../media';
import { AgentCallMetadata, AgentConnectError, AgentLogger, AgentPort } from './agent.port';
import { AgentEmitter } from './agent-emitter';
import { sanitizedTarget } from './agent-failure';
import { AudioReframer } from './audio-reframer';
import { openAgentSocket } from './media-streams.connect';
import { parseAgentMessage } from './media-streams.messages';

export interface MediaStreamsAgentOptions {
  /** The trunk's custom_endpoint (ws:// or wss://). Never logged beyond scheme, host and path. */
  url: string;
  /** Until the WebSocket is open. Default 5000 ms. */
  connectTimeoutMs?: number;
  /** PEM CA(s) to trust for a wss:// agent in addition to the system's (self-signed test agents). */
  ca?: string | Buffer | Array<string | Buffer>;
  /** Agent messages larger than this are dropped (counted, logged once). Default 64 KiB. */
  maxMessageBytes?: number;
  /** Caller frames are dropped (counted) while the socket buffers more than this. Default 32 KiB (~1.2 s of audio). */
  maxBufferedBytes?: number;
  logger?: AgentLogger;
  clock?: MonotonicClock;
}

/** Larger messages than this close the socket (ws maxPayload): memory stays bounded whatever the agent sends. */
const HARD_LIMIT_FACTOR = 16;

/**
 * The custom agent over the bidirectional Media Streams protocol (Twilio's JSON events): we play the
 * telephony side, sending connected, start, media (caller audio, base64 mu-law 8 kHz), dtmf, mark
 * (played) and stop; the agent sends media, mark and clear.
 */
export class MediaStreamsAgent extends AgentEmitter implements AgentPort {
  private ws: WebSocket | null = null;
  private state: 'idle' | 'connecting' | 'open' | 'closed' = 'idle';
  private connecting: AbortController | null = null;
  private readonly streamSid = `MZ${randomBytes(16).toString('hex')}`;
  private callSid = '';
  private accountSid = '';
  private sequence = 0;
  private chunk = 0;
  private startedMs = 0;
  private readonly reframer = new AudioReframer(160, (frame) => this.emit('audio', frame));

  constructor(private readonly options: MediaStreamsAgentOptions) {
    super(options.logger, options.clock);
  }

  protected logContext(): { agent: string; callId: string | undefined } {
    return { agent: sanitizedTarget(this.options.url), callId: this.callSid };
  }

  async connect(call: AgentCallMetadata, signal?: AbortSignal): Promise<void> {
    if (this.state !== 'idle') throw new AgentConnectError('agent_error', false, 'already connected');
    this.state = 'connecting';
    this.callSid = call.callId;
    this.accountSid = call.accountId ?? '';
    // close() while connecting aborts the attempt too (the call ended before the agent answered).
    this.connecting = new AbortController();
    const signals = signal ? AbortSignal.any([signal, this.connecting.signal]) : this.connecting.signal;
    const max = this.options.maxMessageBytes ?? 64 * 1024;
    let ws: WebSocket;
    try {
      ws = await openAgentSocket(
        {
          url: this.options.url,
          timeoutMs: this.options.connectTimeoutMs ?? 5000,
          ca: this.options.ca,
          maxPayloadBytes: Math.max(max * HARD_LIMIT_FACTOR, 1024 * 1024),
        },
        signals,
      );
    } catch (error) {
      this.state = 'closed';
      const failure = error as AgentConnectError;
      this.logOnce(
        `connect:${failure.failureClass}`,
        { class: failure.failureClass, reason: failure.reason },
        'agent connect failed',
      );
      throw failure;
    } finally {
      this.connecting = null;
    }
    if (this.state !== 'connecting') {
      ws.terminate();
      throw new AgentConnectError('agent_timeout', false, 'connect aborted');
    }
    this.ws = ws;
    this.state = 'open';
    this.startedMs = this.clock.nowMs();
    this.attach(ws);
    this.sendStart(call);
  }

  sendAudio(frame: Uint8Array): void {
    const ws = this.ws;
    if (this.state !== 'open' || !ws) return;
    if (this.backedUp(ws, this.options.maxBufferedBytes)) return;
    this.chunk++;
    const timestamp = Math.round(this.clock.nowMs() - this.startedMs);
    const payload = Buffer.from(frame.buffer, frame.byteOffset, frame.byteLength).toString('base64');
    // Built by hand: this runs 50 times a second per call; every value is a number, a base64 or our own id.
    ws.send(
      `{"event":"media","sequenceNumber":"${this.nextSequence()}","media":{"track":"inbound","chunk":"${this.chunk}",` +
        `"timestamp":"${timestamp}","payload":"${payload}"},"streamSid":"${this.streamSid}"}`,
    );
    this.counters.framesSent++;
  }

  sendDtmf(digit: string): void {
    this.sendEvent('dtmf', { dtmf: { track: 'inbound_track', digit } });
  }

  markPlayed(name: string): void {
    this.sendEvent('mark', { mark: { name } });
  }

  /** Media Streams has no barge-in message: the agent detects it from the audio and answers with `clear`. */
  interrupt(): void {
    return;
  }

  close(reason: string): Promise<void> {
    const ws = this.ws;
    if (this.state !== 'open' || !ws) {
      this.connecting?.abort();
      this.state = 'closed';
      return Promise.resolve();
    }
    this.sendEvent('stop', { stop: { accountSid: this.accountSid, callSid: this.callSid } });
    this.reframer.reset();
    this.state = 'closed';
    return this.closeSocket(ws, reason);
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

  private sendStart(call: AgentCallMetadata): void {
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
