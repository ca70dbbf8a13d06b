/**
 * The one port through which a call reaches its AI agent, whatever the provider. The call connects
 * it before answering the INVITE, feeds it the caller's 20 ms mu-law frames, and takes its audio into
 * the pacer. Adapters: media-streams (custom WebSocket agents), openai-realtime, elevenlabs-convai.
 */

/** What the agent is told about the call (Media Streams `start`: callSid, customParameters...). */
export interface AgentCallMetadata {
  /** The call record's id (call_…); sent as callSid. */
  callId: string;
  trunkId: string;
  accountId?: string;
  /** E.164 numbers. */
  from: string;
  to: string;
  /** Extra string parameters for the agent (Media Streams customParameters). Never secrets. */
  customParameters?: Readonly<Record<string, string>>;
}

export type AgentFailureClass = 'agent_timeout' | 'agent_error' | 'agent_auth' | 'agent_quota';

/** Why connect() failed: the class goes on the call record, retryable says whether another try may work. */
export class AgentConnectError extends Error {
  override readonly name = 'AgentConnectError';
  constructor(
    readonly failureClass: AgentFailureClass,
    readonly retryable: boolean,
    readonly reason: string,
  ) {
    super(`${failureClass}: ${reason}`);
  }

  /** The brief's shape: {class, retryable, reason}. */
  toJSON(): { class: AgentFailureClass; retryable: boolean; reason: string } {
    return { class: this.failureClass, retryable: this.retryable, reason: this.reason };
  }
}

/** Why the agent connection ended. `local` = we closed it (close()); the others come from the agent. */
export interface AgentClosed {
  by: 'local' | 'agent' | 'error';
  /** Our close reason, the WebSocket close code and reason, or the error's message (no secrets). */
  reason: string;
  code?: number;
  /** A provider's failure mid-call (error event, dropped socket): the record's class and whether a retry may work. */
  failureClass?: AgentFailureClass;
  retryable?: boolean;
}

export interface AgentEvents {
  /** Agent audio: one 20 ms mu-law frame (160 bytes; a short tail is padded with silence before a mark or stop). */
  audio: (frame: Uint8Array) => void;
  /** The agent asks to be told when the audio before this point has played: answer with markPlayed(name). */
  mark: (name: string) => void;
  /** The agent cancels its queued audio (barge-in): flush the pacer; pending marks count as played. */
  clear: () => void;
  /** The connection ended; emitted once, after which the port sends nothing. */
  closed: (closed: AgentClosed) => void;
}

export interface AgentStats {
  framesSent: number;
  framesReceived: number;
  /** Caller frames not sent because the socket's buffered amount was over the bound. */
  framesDroppedBackpressure: number;
  /** Agent messages dropped: larger than the bound, not JSON, or not a known event. */
  messagesDroppedOversized: number;
  messagesDroppedInvalid: number;
}

export interface AgentPort {
  /**
   * Opens the connection and tells the agent about the call. Resolves once it is ready for audio;
   * rejects with AgentConnectError (timeout, refusal, auth, quota). `signal` aborts (CANCEL while ringing).
   */
  connect(call: AgentCallMetadata, signal?: AbortSignal): Promise<void>;
  /** One caller frame, mu-law 8 kHz (160 bytes = 20 ms). Dropped (counted) under backpressure or when not open. */
  sendAudio(frame: Uint8Array): void;
  /** A caller DTMF digit (0-9 * # A-D). */
  sendDtmf(digit: string): void;
  /** Tells the agent that its mark has been reached in playback (or flushed by clear). */
  markPlayed(name: string): void;
  /** The gateway saw the caller barge in over agent audio. Adapters whose protocol has no such message ignore it. */
  interrupt(): void;
  /** Ends the stream (Media Streams `stop`) and closes the connection; resolves when closed. Idempotent. */
  close(reason: string): Promise<void>;
  on<E extends keyof AgentEvents>(event: E, listener: AgentEvents[E]): this;
  off<E extends keyof AgentEvents>(event: E, listener: AgentEvents[E]): this;
  readonly stats: AgentStats;
}

/** Logger the adapters use; pino fits it. Adapters log no URL query, header or payload. */
export interface AgentLogger {
  warn(fields: Record<string, unknown>, message: string): void;
  info?(fields: Record<string, unknown>, message: string): void;
}
