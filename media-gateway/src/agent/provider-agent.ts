import WebSocket from 'ws';
import { AgentCallMetadata, AgentClosed, AgentConnectError } from './agent.port';
import { classifyRefusal } from './agent-failure';
import { OpenSocketOptions } from './media-streams.connect';
import { SocketAgent, SocketAgentSettings } from './socket-agent';

export interface ProviderAgentOptions extends SocketAgentSettings {
  /** The provider's WebSocket URL with its query (model, agent id). Never logged beyond `target`. */
  url: string;
  /** Upgrade headers: the provider's key. Never logged. */
  headers: Record<string, string>;
  /** What log lines name the provider by (scheme://host/path, no query). */
  target: string;
  ca?: string | Buffer | Array<string | Buffer>;
  /** Provider messages larger than this are dropped (counted). Default 1 MiB (audio deltas are large). */
  maxMessageBytes?: number;
}

/**
 * What the OpenAI and ElevenLabs adapters share beyond the socket's life (socket-agent.ts): the key
 * in an upgrade header, the wait for the provider's "ready" event within the connect deadline
 * (connectTimeoutMs counts from the first byte to it), JSON parsing under a size bound, and the
 * failure class a close carries. Each adapter keeps its protocol (event names and shapes) in its
 * own file: `begin` sends its opening messages, `onEvent` reads one parsed event and calls
 * `ready()` or `refuse()` while connecting.
 */
export abstract class ProviderAgent extends SocketAgent {
  /** The last failure the provider reported in an error event: the class a close that follows carries. */
  protected lastFailure: AgentConnectError | null = null;
  private handshake: { resolve: () => void; reject: (error: AgentConnectError) => void } | null = null;

  constructor(protected readonly options: ProviderAgentOptions) {
    super(options);
  }

  protected logContext(): { agent: string; callId: string | undefined } {
    return { agent: this.options.target, callId: this.call?.callId };
  }

  /** Sends the provider's opening messages once the socket is open. */
  protected abstract begin(call: AgentCallMetadata): void;
  /** One parsed provider event (an object). */
  protected abstract onEvent(event: Record<string, unknown>): void;

  protected socketOptions(timeoutMs: number): OpenSocketOptions {
    return {
      url: this.options.url,
      timeoutMs,
      ca: this.options.ca,
      maxPayloadBytes: 16 * (this.options.maxMessageBytes ?? 1024 * 1024),
      headers: this.options.headers,
    };
  }

  protected opened(ws: WebSocket, remainingMs: number, signal: AbortSignal): Promise<void> {
    this.attach(ws);
    return this.awaitReady(remainingMs, signal);
  }

  private awaitReady(ms: number, signal: AbortSignal): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const done = () => {
        clearTimeout(timer);
        signal.removeEventListener('abort', onAbort);
        this.handshake = null;
      };
      const onAbort = () => {
        done();
        reject(new AgentConnectError('agent_timeout', false, 'connect aborted'));
      };
      const timer = setTimeout(() => {
        done();
        reject(
          new AgentConnectError(
            'agent_timeout',
            true,
            `the provider's session was not ready within the connect timeout`,
          ),
        );
      }, ms);
      signal.addEventListener('abort', onAbort, { once: true });
      this.handshake = {
        resolve: () => {
          done();
          this.state = 'open';
          resolve();
        },
        reject: (error) => {
          done();
          reject(error);
        },
      };
      try {
        this.begin(this.call!);
      } catch (error) {
        this.refuse(new AgentConnectError('agent_error', false, (error as Error).message));
      }
    });
  }

  /** The provider's session is ready for audio: connect() resolves. */
  protected ready(): void {
    this.handshake?.resolve();
  }

  /** The provider refused while connecting: connect() rejects with this. */
  protected refuse(failure: AgentConnectError): void {
    this.handshake?.reject(failure);
  }

  protected get connectingNow(): boolean {
    return this.handshake !== null;
  }

  /** Neither provider takes DTMF over its audio socket: digits are dropped (the provider hears the tones). */
  sendDtmf(_digit: string): void {
    return;
  }

  markPlayed(_name: string): void {
    return;
  }

  protected send(event: Record<string, unknown>): void {
    if ((this.state === 'open' || this.state === 'connecting') && this.ws?.readyState === WebSocket.OPEN)
      this.ws.send(JSON.stringify(event));
  }

  private attach(ws: WebSocket): void {
    ws.removeAllListeners('error');
    ws.on('message', (data, isBinary) => this.onMessage(data, isBinary));
    ws.on('error', (error) => {
      this.logOnce('socket-error', { error: error.message }, 'agent socket error');
      this.ended({ by: 'error', reason: error.message }, new AgentConnectError('agent_error', true, error.message));
    });
    ws.on('close', (code, reason) => {
      const text = reason.toString();
      // 1006: the socket dropped without a close frame (retryable); otherwise the provider's words say why.
      const failure =
        this.lastFailure ??
        (code === 1006
          ? new AgentConnectError('agent_error', true, 'the provider dropped the socket (1006)')
          : classifyRefusal(code, text || `the provider closed the socket (${code})`));
      this.ended({ by: code === 1000 || code === 1001 ? 'agent' : 'error', reason: text || 'closed', code }, failure);
    });
  }

  private ended(closed: AgentClosed, failure: AgentConnectError): void {
    if (this.handshake) {
      this.refuse(this.lastFailure ?? failure);
      return;
    }
    if (this.state === 'open') {
      this.state = 'closed';
      this.emitClosed(
        closed.by === 'agent' && !this.lastFailure
          ? closed
          : {
              ...closed,
              by: 'error',
              failureClass: (this.lastFailure ?? failure).failureClass,
              retryable: (this.lastFailure ?? failure).retryable,
            },
      );
    }
    this.state = 'closed';
  }

  private onMessage(data: WebSocket.RawData, isBinary: boolean): void {
    if (this.state === 'closed' || this.state === 'idle') return;
    const buffer = Array.isArray(data) ? Buffer.concat(data) : Buffer.isBuffer(data) ? data : Buffer.from(data);
    if (buffer.byteLength > (this.options.maxMessageBytes ?? 1024 * 1024)) {
      this.counters.messagesDroppedOversized++;
      this.logOnce('oversized', { bytes: buffer.byteLength }, 'agent message dropped (oversized)');
      return;
    }
    let value: unknown = null;
    if (!isBinary) {
      try {
        value = JSON.parse(buffer.toString('utf8'));
      } catch {
        value = null;
      }
    }
    if (value === null || typeof value !== 'object' || Array.isArray(value)) {
      this.counters.messagesDroppedInvalid++;
      this.logOnce('invalid', { bytes: buffer.byteLength }, 'agent message dropped (invalid)');
      return;
    }
    this.onEvent(value as Record<string, unknown>);
  }

  /** Base64 audio from the provider into 20 ms frames; a malformed payload is dropped (counted). */
  protected pushAudio(base64: unknown): number {
    if (typeof base64 !== 'string' || base64.length % 4 !== 0 || !/^[A-Za-z0-9+/]*={0,2}$/.test(base64)) {
      this.counters.messagesDroppedInvalid++;
      return 0;
    }
    const audio = Buffer.from(base64, 'base64');
    this.counters.framesReceived += this.reframer.push(audio);
    return audio.length;
  }
}
