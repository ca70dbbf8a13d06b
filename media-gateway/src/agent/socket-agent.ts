import type WebSocket from 'ws';
import type { MonotonicClock } from '../media';
import { AgentCallMetadata, AgentConnectError, AgentLogger, AgentPort } from './agent.port';
import { AgentEmitter } from './agent-emitter';
import { AudioReframer } from './audio-reframer';
import { openAgentSocket, OpenSocketOptions } from './media-streams.connect';

export interface SocketAgentSettings {
  /** From the first byte until the adapter's handshake is done. Default 5000 ms. */
  connectTimeoutMs?: number;
  /** Caller frames are dropped (counted) while the socket buffers more than this. Default 32 KiB. */
  maxBufferedBytes?: number;
  logger?: AgentLogger;
  clock?: MonotonicClock;
}

export type AgentState = 'idle' | 'connecting' | 'open' | 'closed';

/**
 * An agent behind one WebSocket, whatever its protocol (Media Streams, OpenAI, ElevenLabs): the
 * socket's life in one place. `connect` opens it under the call's signal and the connect deadline
 * and hands it to the adapter's handshake (`opened`); every way out goes through `connect`'s
 * failure path or through `close`, which aborts an attempt still under way, closes the socket
 * once (a close frame after the protocol's goodbye when open, at once otherwise) and leaves the
 * agent `closed`. Caller audio goes out only while open and within the socket's buffer bound.
 */
export abstract class SocketAgent extends AgentEmitter implements AgentPort {
  protected ws: WebSocket | null = null;
  protected state: AgentState = 'idle';
  protected call: AgentCallMetadata | null = null;
  protected readonly reframer = new AudioReframer(160, (frame) => this.frameOut(frame));
  private connecting: AbortController | null = null;

  constructor(private readonly socketSettings: SocketAgentSettings) {
    super(socketSettings.logger, socketSettings.clock);
  }

  /** Where and how to open the socket (`timeoutMs`: the whole connect deadline). */
  protected abstract socketOptions(timeoutMs: number): OpenSocketOptions;
  /**
   * The socket is open: the adapter's handshake, within `remainingMs` (or until `signal`). It sets
   * the state `open` the moment the protocol is ready, so what arrives in the same tick is taken.
   */
  protected abstract opened(ws: WebSocket, remainingMs: number, signal: AbortSignal): void | Promise<void>;
  /** The protocol's message carrying one caller frame (base64 mu-law). */
  protected abstract audioMessage(base64: string): string;
  abstract sendDtmf(digit: string): void;
  abstract markPlayed(name: string): void;

  async connect(call: AgentCallMetadata, signal?: AbortSignal): Promise<void> {
    if (this.state !== 'idle') throw new AgentConnectError('agent_error', false, 'already connected');
    this.state = 'connecting';
    this.call = call;
    // close() while connecting aborts the attempt too (the call ended before the agent answered).
    this.connecting = new AbortController();
    const signals = signal ? AbortSignal.any([signal, this.connecting.signal]) : this.connecting.signal;
    const timeoutMs = this.socketSettings.connectTimeoutMs ?? 5000;
    const started = this.clock.nowMs();
    try {
      const ws = await openAgentSocket(this.socketOptions(timeoutMs), signals);
      if (this.state !== 'connecting') {
        ws.terminate();
        throw new AgentConnectError('agent_timeout', false, 'connect aborted');
      }
      this.ws = ws;
      await this.opened(ws, Math.max(1, timeoutMs - (this.clock.nowMs() - started)), signals);
    } catch (error) {
      const failure =
        error instanceof AgentConnectError
          ? error
          : new AgentConnectError('agent_error', false, (error as Error).message);
      this.state = 'closed';
      this.ws?.terminate();
      this.logOnce(
        `connect:${failure.failureClass}`,
        { class: failure.failureClass, reason: failure.reason },
        'agent connect failed',
      );
      throw failure;
    } finally {
      this.connecting = null;
    }
  }

  sendAudio(frame: Uint8Array): void {
    const ws = this.ws;
    if (this.state !== 'open' || !ws) return;
    if (this.backedUp(ws, this.socketSettings.maxBufferedBytes)) return;
    ws.send(this.audioMessage(Buffer.from(frame.buffer, frame.byteOffset, frame.byteLength).toString('base64')));
    this.counters.framesSent++;
  }

  /** No barge-in message unless the protocol has one: the agent hears the caller in the audio. */
  interrupt(): void {
    return;
  }

  /** Ends the agent's side of the call, from any state; resolves once the socket is closed. */
  close(reason: string): Promise<void> {
    const ws = this.ws;
    if (this.state !== 'open' || !ws) {
      this.connecting?.abort();
      this.state = 'closed';
      ws?.terminate();
      return Promise.resolve();
    }
    this.goodbye();
    this.reframer.reset();
    this.state = 'closed';
    return this.closeSocket(ws, reason);
  }

  /** What the protocol sends before the close frame (Media Streams: stop); nothing by default. */
  protected goodbye(): void {
    return;
  }

  /** One 20 ms agent frame to the pacer. */
  protected frameOut(frame: Uint8Array): void {
    this.emit('audio', frame);
  }
}
