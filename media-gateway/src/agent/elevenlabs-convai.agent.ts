import { AgentCallMetadata, AgentConnectError } from './agent.port';
import { classifyRefusal, sanitizedTarget } from './agent-failure';
import { ProviderAgent, ProviderAgentOptions } from './provider-agent';

/**
 * ElevenLabs Conversational AI (Agents Platform) WebSocket: `wss://api.elevenlabs.io/v1/convai/conversation?agent_id=`,
 * the key in `xi-api-key`. The protocol lives in this file only (docs/media-gateway.md, "ElevenLabs").
 *
 * We send `conversation_initiation_client_data` (the trunk's system prompt and voice as overrides
 * when set, the call's numbers as dynamic variables) and wait for `conversation_initiation_metadata`,
 * whose audio formats must both be `ulaw_8000` (set in the agent's settings: nothing is resampled).
 * Caller audio goes as `{"user_audio_chunk": base64}`; agent audio comes as `audio` events
 * (`audio_event.audio_base_64`, `event_id`); `interruption` (the provider's own VAD) flushes the queue
 * and drops the audio of events up to its `event_id`; every `ping` is answered with a `pong` of its `event_id`.
 */
export const ELEVENLABS_CONVAI_URL = 'wss://api.elevenlabs.io/v1/convai/conversation';
const ULAW = 'ulaw_8000';

export interface ElevenLabsSettings {
  /** Base URL (MEDIA_GATEWAY_ELEVENLABS_URL); `?agent_id=` is added. */
  url?: string;
  apiKey: string;
  agentId: string;
  /** The trunk's system_prompt: sent as the agent prompt override (the agent must allow overrides). */
  prompt?: string | null;
  /** provider_settings.voice: a TTS voice_id override. */
  voice?: string | null;
}

export class ElevenLabsConvaiAgent extends ProviderAgent {
  private readonly settings: ElevenLabsSettings;
  /** Audio events up to this event_id were interrupted: late ones are dropped. */
  private interruptedUpTo = -1;
  conversationId: string | null = null;

  constructor(settings: ElevenLabsSettings, options: Omit<ProviderAgentOptions, 'url' | 'headers' | 'target'>) {
    const base = settings.url ?? ELEVENLABS_CONVAI_URL;
    const url = `${base}${base.includes('?') ? '&' : '?'}agent_id=${encodeURIComponent(settings.agentId)}`;
    super({ ...options, url, headers: { 'xi-api-key': settings.apiKey }, target: sanitizedTarget(base) });
    this.settings = settings;
  }

  protected begin(call: AgentCallMetadata): void {
    const agent = this.settings.prompt ? { prompt: { prompt: this.settings.prompt } } : undefined;
    const tts = this.settings.voice ? { voice_id: this.settings.voice } : undefined;
    this.send({
      type: 'conversation_initiation_client_data',
      ...(agent || tts
        ? { conversation_config_override: { ...(agent ? { agent } : {}), ...(tts ? { tts } : {}) } }
        : {}),
      dynamic_variables: { caller_id: call.from, called_number: call.to, call_id: call.callId },
    });
  }

  protected audioMessage(base64: string): string {
    return `{"user_audio_chunk":"${base64}"}`;
  }

  protected onEvent(event: Record<string, unknown>): void {
    switch (event.type) {
      case 'conversation_initiation_metadata':
        return this.onMetadata(event.conversation_initiation_metadata_event);
      case 'audio':
        return this.onAudio(event.audio_event);
      case 'interruption':
        return this.onInterruption(event.interruption_event);
      case 'ping': {
        const id = (event.ping_event as { event_id?: unknown } | undefined)?.event_id;
        if (typeof id === 'number') this.send({ type: 'pong', event_id: id });
        return;
      }
      case 'error':
        return this.onError(event);
      default:
        // agent_response, user_transcript, agent_response_correction, vad_score, client_tool_call...: text
        // and scores, not the call's audio (the gateway measures turns from the audio itself).
        return;
    }
  }

  private onMetadata(metadata: unknown): void {
    if (!this.connectingNow) return;
    const m = (metadata ?? {}) as {
      conversation_id?: unknown;
      agent_output_audio_format?: unknown;
      user_input_audio_format?: unknown;
    };
    if (m.agent_output_audio_format !== ULAW || m.user_input_audio_format !== ULAW) {
      const formats = `${String(m.user_input_audio_format)}/${String(m.agent_output_audio_format)}`.slice(0, 60);
      return this.refuse(
        new AgentConnectError('agent_error', false, `the agent's audio formats are ${formats}; set both to ulaw_8000`),
      );
    }
    this.conversationId = typeof m.conversation_id === 'string' ? m.conversation_id.slice(0, 128) : null;
    this.ready();
  }

  private onAudio(audio: unknown): void {
    if (this.state !== 'open') return;
    const a = (audio ?? {}) as { audio_base_64?: unknown; event_id?: unknown };
    if (typeof a.event_id === 'number' && a.event_id <= this.interruptedUpTo) return;
    this.pushAudio(a.audio_base_64);
  }

  private onInterruption(interruption: unknown): void {
    const id = (interruption as { event_id?: unknown } | undefined)?.event_id;
    if (typeof id === 'number') this.interruptedUpTo = Math.max(this.interruptedUpTo, id);
    this.reframer.reset();
    this.emit('clear');
  }

  /** Not in the published client events, but read if sent: the same words as a close reason. */
  private onError(event: Record<string, unknown>): void {
    const e = (event.error_event ?? event.error ?? event) as {
      code?: string | number;
      message?: string;
      error_type?: string;
    };
    const failure = classifyRefusal(e.code ?? e.error_type, String(e.message ?? 'error'));
    if (this.connectingNow) return this.refuse(failure);
    this.lastFailure = failure;
    this.logOnce('error', { class: failure.failureClass }, 'provider error event');
  }
}
