/**
 * Builds a call's turns[] (api.md: turn_number, speaker, duration_ms, processing_time_ms) from the
 * caller's VAD events and the agent frames actually sent to the caller. All times are monotonic ms.
 *
 * - A caller turn runs from speech start to speech end (VAD).
 * - An agent turn starts with the first agent frame sent to the caller and ends with the last frame
 *   before a gap of more than `agentGapMs` (or a `clear`, or the call's end). With `gapBy: 'idle-slots'`
 *   the gap is counted in pacer slots that found the queue empty (agentIdle), so a stalled process that
 *   sends queued frames late does not split one answer into two turns.
 * - processing_time_ms of an agent turn = its first frame − the end of the caller speech it follows;
 *   0 when it does not follow caller speech (a greeting, a second answer without caller speech between).
 * - An agent turn is interrupted when caller speech starts while it is still playing (barge-in): before
 *   the end of its last frame sent, or (idle-slots) while the pacer still had its audio queued.
 */
export type Speaker = 'caller' | 'agent';

export interface Turn {
  turn_number: number;
  speaker: Speaker;
  duration_ms: number;
  processing_time_ms: number;
  /** Agent turns only: the caller spoke over it (true) before it finished. */
  interrupted: boolean;
  /** Monotonic start, for ordering and timelines; not an api.md field. */
  startMs: number;
}

export interface TurnSummary {
  turns: Turn[];
  /** Mean processing_time_ms of agent turns that follow caller speech, rounded; null when none did. */
  ai_latency_ms: number | null;
}

export interface TurnTrackerOptions {
  /** A pause in agent audio longer than this ends an agent turn. Default 300 ms. */
  agentGapMs?: number;
  /** Duration of one agent frame. Default 20 ms. */
  frameMs?: number;
  /**
   * 'time' (default): the gap is the time between frames sent. 'idle-slots': the gap is the number of
   * empty pacer slots reported by agentIdle() times frameMs (immune to event-loop stalls).
   */
  gapBy?: 'time' | 'idle-slots';
}

interface OpenAgentTurn {
  startMs: number;
  lastFrameEndMs: number;
  processing: number;
  interrupted: boolean;
}

export class TurnTracker {
  private readonly done: Array<Omit<Turn, 'turn_number'>> = [];
  private callerStartMs: number | null = null;
  /** End of caller speech not yet answered by an agent turn. */
  private unansweredCallerEndMs: number | null = null;
  private agent: OpenAgentTurn | null = null;
  private readonly agentGapMs: number;
  private readonly frameMs: number;
  private readonly bySlots: boolean;
  /** Empty pacer slots since the last agent frame (idle-slots mode). */
  private idleSlots = 0;

  constructor(options: TurnTrackerOptions = {}) {
    this.agentGapMs = options.agentGapMs ?? 300;
    this.frameMs = options.frameMs ?? 20;
    this.bySlots = options.gapBy === 'idle-slots';
  }

  callerSpeechStarted(atMs: number): void {
    this.closeAgentIfIdle(atMs);
    // Barge-in: the agent turn stays open until its audio stops (the agent's `clear`, or a gap), so the
    // frames still queued when the caller spoke up belong to it and do not make a turn of their own.
    if (this.agent && this.agentSpeaking(atMs)) this.agent.interrupted = true;
    this.callerStartMs = atMs;
  }

  /** A pacer slot found no agent audio queued (idle-slots mode; ignored in time mode). */
  agentIdle(): void {
    if (!this.bySlots || !this.agent) return;
    this.idleSlots++;
    if (this.idleSlots * this.frameMs > this.agentGapMs) this.closeAgent();
  }

  callerSpeechEnded(atMs: number): void {
    const startMs = this.callerStartMs ?? atMs;
    this.callerStartMs = null;
    this.done.push({
      speaker: 'caller',
      duration_ms: Math.max(0, Math.round(atMs - startMs)),
      processing_time_ms: 0,
      interrupted: false,
      startMs,
    });
    this.unansweredCallerEndMs = atMs;
  }

  /** An agent frame left for the caller at `sentAtMs` (the moment it was written to the socket). */
  agentFrameSent(sentAtMs: number): void {
    this.closeAgentIfIdle(sentAtMs);
    this.idleSlots = 0;
    if (!this.agent) {
      const follows = this.unansweredCallerEndMs;
      this.unansweredCallerEndMs = null;
      this.agent = {
        startMs: sentAtMs,
        lastFrameEndMs: sentAtMs + this.frameMs,
        processing: follows === null ? 0 : Math.max(0, Math.round(sentAtMs - follows)),
        interrupted: false,
      };
      return;
    }
    this.agent.lastFrameEndMs = sentAtMs + this.frameMs;
  }

  /** The agent's `clear`: what it had queued is dropped, so its turn ends with the last frame sent. */
  agentCleared(atMs: number): void {
    if (this.agent) {
      if (this.callerStartMs !== null) this.agent.interrupted = true;
      this.agent.lastFrameEndMs = Math.min(this.agent.lastFrameEndMs, atMs);
      this.closeAgent();
    }
  }

  /** Whether agent audio is playing at `atMs` (for barge-in decisions). */
  agentSpeaking(atMs: number): boolean {
    if (this.agent === null) return false;
    return atMs < this.agent.lastFrameEndMs || (this.bySlots && this.idleSlots === 0);
  }

  /** Ends what is open at call end and returns the turns in order of their start. */
  finish(atMs: number): TurnSummary {
    if (this.callerStartMs !== null) this.callerSpeechEnded(atMs);
    if (this.agent) this.closeAgent();
    const ordered = [...this.done].sort((a, b) => a.startMs - b.startMs);
    const turns = ordered.map((t, i) => ({ ...t, turn_number: i + 1 }));
    const answered = turns.filter((t) => t.speaker === 'agent' && t.processing_time_ms > 0);
    const ai =
      answered.length === 0
        ? null
        : Math.round(answered.reduce((sum, t) => sum + t.processing_time_ms, 0) / answered.length);
    return { turns, ai_latency_ms: ai };
  }

  private closeAgentIfIdle(atMs: number): void {
    if (this.bySlots) return;
    if (this.agent && atMs - this.agent.lastFrameEndMs > this.agentGapMs) this.closeAgent();
  }

  private closeAgent(): void {
    const a = this.agent;
    if (!a) return;
    this.agent = null;
    this.done.push({
      speaker: 'agent',
      duration_ms: Math.max(0, Math.round(a.lastFrameEndMs - a.startMs)),
      processing_time_ms: a.processing,
      interrupted: a.interrupted,
      startMs: a.startMs,
    });
  }
}

/** The api.md shape of turns (turn_number, speaker, duration_ms, processing_time_ms), with `interrupted` only if asked. */
export function recordTurns(
  turns: readonly Turn[],
  withInterrupted = false,
): Array<{
  turn_number: number;
  speaker: Speaker;
  duration_ms: number;
  processing_time_ms: number;
  interrupted?: boolean;
}> {
  return turns.map((t) => ({
    turn_number: t.turn_number,
    speaker: t.speaker,
    duration_ms: t.duration_ms,
    processing_time_ms: t.processing_time_ms,
    ...(withInterrupted ? { interrupted: t.interrupted } : {}),
  }));
}
