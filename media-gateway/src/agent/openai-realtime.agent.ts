import { AgentCallMetadata, AgentConnectError } from './agent.port';
import { classifyRefusal, sanitizedTarget } from './agent-failure';
import { ProviderAgent, ProviderAgentOptions } from './provider-agent';

/**
 * OpenAI Realtime API over WebSocket, GA interface (`session.type: "realtime"`, `audio.input` /
 * `audio.output`, `response.output_audio.delta`; the beta's `response.audio.delta` is read too).
 * The protocol lives in this file only (docs/media-gateway.md, "OpenAI Realtime").
 *
 * Caller audio goes as `input_audio_buffer.append` (G.711 µ-law, `audio/pcmu`, so nothing is
 * resampled); turn detection is the provider's server VAD with the trunk's `vad`; agent audio comes
 * as output audio deltas of an item. Barge-in: `input_audio_buffer.speech_started` (or the gateway's
 * own VAD through `interrupt()`) flushes the queue at once and truncates the playing item at what the
 * caller heard (`conversation.item.truncate`, `audio_end_ms`), counted by marks the pacer returns.
 */
export const OPENAI_REALTIME_URL = 'wss://api.openai.com/v1/realtime';
export const OPENAI_DEFAULT_MODEL = 'gpt-realtime';
export const OPENAI_DEFAULT_VOICE = 'alloy';

export interface OpenAiRealtimeSettings {
  /** Base URL (MEDIA_GATEWAY_OPENAI_URL); `?model=` is added. */
  url?: string;
  apiKey: string;
  model?: string | null;
  voice?: string | null;
  instructions?: string | null;
  vad?: { threshold?: number; prefix_padding_ms?: number; silence_duration_ms?: number } | null;
}

const MARK = 'oai:';

export class OpenAiRealtimeAgent extends ProviderAgent {
  private readonly settings: OpenAiRealtimeSettings;
  /** The assistant item whose audio is arriving or playing, how much of it went to the pacer and how much the caller heard (ms). */
  private item: { id: string; receivedMs: number; heardMs: number; truncated: boolean } | null = null;
  /** Marks in flight: name → (item, ms of that item's audio up to the mark). */
  private readonly marks = new Map<string, { id: string; endMs: number }>();
  private markSeq = 0;
  /** Items truncated or cancelled: their late deltas are dropped. */
  private readonly dropped = new Set<string>();
  private clearing = false;
  private eventSeq = 0;

  constructor(settings: OpenAiRealtimeSettings, options: Omit<ProviderAgentOptions, 'url' | 'headers' | 'target'>) {
    const base = settings.url ?? OPENAI_REALTIME_URL;
    const url = `${base}${base.includes('?') ? '&' : '?'}model=${encodeURIComponent(settings.model || OPENAI_DEFAULT_MODEL)}`;
    super({ ...options, url, headers: { Authorization: `Bearer ${settings.apiKey}` }, target: sanitizedTarget(base) });
    this.settings = settings;
  }

  protected begin(_call: AgentCallMetadata): void {
    const vad = this.settings.vad ?? {};
    this.send({
      type: 'session.update',
      event_id: this.eventId(),
      session: {
        type: 'realtime',
        model: this.settings.model || OPENAI_DEFAULT_MODEL,
        output_modalities: ['audio'],
        ...(this.settings.instructions ? { instructions: this.settings.instructions } : {}),
        audio: {
          input: {
            format: { type: 'audio/pcmu' },
            turn_detection: {
              type: 'server_vad',
              threshold: vad.threshold ?? 0.5,
              prefix_padding_ms: vad.prefix_padding_ms ?? 300,
              silence_duration_ms: vad.silence_duration_ms ?? 500,
              create_response: true,
              interrupt_response: true,
            },
          },
          output: { format: { type: 'audio/pcmu' }, voice: this.settings.voice || OPENAI_DEFAULT_VOICE },
        },
      },
    });
  }

  protected audioMessage(base64: string): string {
    return `{"type":"input_audio_buffer.append","audio":"${base64}"}`;
  }

  protected onEvent(event: Record<string, unknown>): void {
    switch (event.type) {
      case 'session.created':
        return;
      case 'session.updated':
        if (this.connectingNow) this.ready();
        return;
      case 'response.output_audio.delta':
      case 'response.audio.delta':
        return this.onDelta(String(event.item_id ?? ''), event.delta);
      case 'input_audio_buffer.speech_started':
        return this.bargeIn();
      case 'response.done':
        return this.onResponseDone(event.response);
      case 'error':
        return this.onError(event.error);
      default:
        // Transcripts, item lifecycle, rate_limits.updated...: not needed for the call's audio or turns.
        return;
    }
  }

  private onDelta(itemId: string, delta: unknown): void {
    if (this.state !== 'open' || this.dropped.has(itemId)) return;
    if (!this.item || this.item.id !== itemId) this.item = { id: itemId, receivedMs: 0, heardMs: 0, truncated: false };
    this.pushAudio(delta);
  }

  /** Each frame of the playing item is followed by a mark: when the pacer returns it, the caller has heard up to there. */
  protected override frameOut(frame: Uint8Array): void {
    super.frameOut(frame);
    const item = this.item;
    if (!item) return;
    item.receivedMs += 20;
    const name = `${MARK}${++this.markSeq}`;
    this.marks.set(name, { id: item.id, endMs: item.receivedMs });
    this.emit('mark', name);
  }

  override markPlayed(name: string): void {
    const mark = this.marks.get(name);
    if (!mark) return;
    this.marks.delete(name);
    if (this.clearing) return;
    if (this.item && this.item.id === mark.id) this.item.heardMs = Math.max(this.item.heardMs, mark.endMs);
  }

  /** The gateway's VAD heard the caller over agent audio: stop at once, as the provider's speech_started would. */
  override interrupt(): void {
    this.bargeIn();
  }

  private bargeIn(): void {
    const item = this.item;
    if (this.state !== 'open' || !item || item.truncated || item.heardMs >= item.receivedMs) return;
    item.truncated = true;
    this.dropped.add(item.id);
    this.send({
      type: 'conversation.item.truncate',
      event_id: this.eventId(),
      item_id: item.id,
      content_index: 0,
      audio_end_ms: Math.floor(item.heardMs),
    });
    this.reframer.reset();
    this.clearing = true;
    try {
      this.emit('clear');
    } finally {
      this.clearing = false;
      this.marks.clear();
    }
  }

  private onResponseDone(response: unknown): void {
    const r = (response ?? {}) as {
      status?: string;
      status_details?: { error?: { type?: string; code?: string; message?: string } };
    };
    if (r.status !== 'failed') return;
    const error = r.status_details?.error ?? {};
    this.lastFailure = classifyRefusal(error.code ?? error.type, error.message ?? 'response failed');
    this.logOnce(
      `response-failed:${this.lastFailure.failureClass}`,
      { class: this.lastFailure.failureClass },
      'provider response failed',
    );
  }

  private onError(error: unknown): void {
    const e = (error ?? {}) as { type?: string; code?: string; message?: string };
    const failure: AgentConnectError = classifyRefusal(e.code ?? e.type, e.message ?? 'error');
    if (this.connectingNow) return this.refuse(failure);
    // Mid-call errors are mostly recoverable (the session stays open): logged once; if the provider
    // then closes the socket, the call's record carries this class.
    this.lastFailure = failure;
    this.logOnce(
      `error:${e.code ?? e.type ?? ''}`,
      { class: failure.failureClass, code: e.code ?? null },
      'provider error event',
    );
  }

  private eventId(): string {
    return `evt_tl_${++this.eventSeq}`;
  }
}
