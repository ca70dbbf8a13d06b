import { EventEmitter } from 'node:events';
import type WebSocket from 'ws';
import { MonotonicClock, monotonicClock } from '../media';
import type { AgentClosed, AgentEvents, AgentLogger, AgentStats } from './agent.port';

const CLOSE_WAIT_MS = 2000;

/**
 * What every adapter of the agent port shares, whatever its protocol: typed events, the counters
 * behind `stats`, `closed` emitted once, a log line per kind of trouble per call, and the closing
 * handshake (a close frame, then the socket destroyed if the peer does not answer within 2 s).
 */
export abstract class AgentEmitter extends EventEmitter {
  protected readonly clock: MonotonicClock;
  protected readonly counters: AgentStats = {
    framesSent: 0,
    framesReceived: 0,
    framesDroppedBackpressure: 0,
    messagesDroppedOversized: 0,
    messagesDroppedInvalid: 0,
  };
  private closedEmitted = false;
  private readonly logged = new Set<string>();

  constructor(
    private readonly logger: AgentLogger | undefined,
    clock: MonotonicClock | undefined,
  ) {
    super();
    this.clock = clock ?? monotonicClock;
  }

  get stats(): AgentStats {
    return { ...this.counters };
  }

  override on<E extends keyof AgentEvents>(event: E, listener: AgentEvents[E]): this {
    return super.on(event, listener);
  }

  override off<E extends keyof AgentEvents>(event: E, listener: AgentEvents[E]): this {
    return super.off(event, listener);
  }

  /** Where log lines say the agent is (scheme://host/path, nothing secret) and which call it serves. */
  protected abstract logContext(): { agent: string; callId: string | undefined };

  protected emitClosed(closed: AgentClosed): void {
    if (this.closedEmitted) return;
    this.closedEmitted = true;
    this.emit('closed', closed);
  }

  protected logOnce(kind: string, fields: Record<string, unknown>, message: string): void {
    if (this.logged.has(kind)) return;
    this.logged.add(kind);
    this.logger?.warn({ ...fields, ...this.logContext() }, message);
  }

  /** True (the caller frame dropped, counted) while the socket buffers more than `max` bytes (default 32 KiB, ~1.2 s of audio). */
  protected backedUp(ws: WebSocket, max = 32 * 1024): boolean {
    if (ws.bufferedAmount <= max) return false;
    this.counters.framesDroppedBackpressure++;
    this.logOnce(
      'backpressure',
      { bufferedAmount: ws.bufferedAmount },
      'agent socket backed up: dropping caller audio',
    );
    return true;
  }

  /** Emits `closed` (by: local), sends a close frame and resolves once the socket is closed (2 s at most). */
  protected closeSocket(ws: WebSocket, reason: string): Promise<void> {
    return new Promise<void>((resolve) => {
      const timer = setTimeout(() => ws.terminate(), CLOSE_WAIT_MS);
      ws.once('close', () => {
        clearTimeout(timer);
        resolve();
      });
      this.emitClosed({ by: 'local', reason });
      ws.close(1000, Buffer.from(reason).subarray(0, 120).toString());
    });
  }
}
