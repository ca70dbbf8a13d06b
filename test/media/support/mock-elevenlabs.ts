/**
 * An ElevenLabs Conversational AI (Agents Platform) WebSocket server for tests, written from
 * ElevenLabs' published client and server events: the client's `conversation_initiation_client_data`
 * is answered `conversation_initiation_metadata` (conversation id, `ulaw_8000` both ways); a `ping`
 * (event_id, ping_ms) every second, whose `pong` must carry the same event_id; `user_audio_chunk`
 * feeds its VAD (energy); at the end of an utterance `user_transcript`, then D ms later
 * `agent_response` and `audio` events (`audio_base_64`, increasing `event_id`); caller speech while
 * an answer plays: `interruption` with the last audio event's id.
 *
 * Behaviour by the connection's key (`xi-api-key`) and agent (`?agent_id=`): no key: HTTP 401 on the
 * upgrade; a key containing `revoked`: close 1008 "Invalid API key"; `agent-quota`: close 1008
 * quota; `agent-missing`: close 1008 agent does not exist; `agent-pcm`: metadata with pcm_16000
 * formats (the agent is not set up for telephony); `agent-drop`: the socket destroyed 300 ms after the
 * first answer; `agent-long`: 4 s answers; anything else: `replyMs` answers.
 */
import { toneReply } from './mock-agent';
import { MockProvider, parsed, ProviderConnection, startMockProvider } from './mock-provider-server';
import { UtteranceDetector } from './utterances';

export interface ElevenLabsMockOptions {
  replyDelayMs: number;
  replyMs: number;
  silenceMs: number;
}

export interface ElevenLabsMock extends MockProvider {
  /** The client data of each conversation, the interruptions sent, pings sent and pongs answered correctly. */
  initiations: Record<string, unknown>[];
  counters: { interruptions: number; pings: number; pongs: number; badPongs: number };
}

const CLOSES: Record<string, string> = {
  'agent-quota': 'This request exceeds your quota limit of 10000 characters.',
  'agent-missing': 'The AI agent you are trying to reach does not exist.',
};

export async function startElevenLabsMock(
  certificate: { key: string; cert: string },
  options: ElevenLabsMockOptions,
): Promise<ElevenLabsMock> {
  const initiations: Record<string, unknown>[] = [];
  const counters = { interruptions: 0, pings: 0, pongs: 0, badPongs: 0 };
  const mock = await startMockProvider(
    certificate,
    '/v1/convai/conversation',
    (request) => (request.headers['xi-api-key'] ? null : 401),
    (connection, later) => serve(connection, later),
  );

  function serve(connection: ProviderConnection, later: (fn: () => void, ms: number) => void): void {
    const agent = new URL(connection.url, 'wss://x').searchParams.get('agent_id') ?? '';
    const revoked = /revoked/.test(String(connection.headers['xi-api-key']));
    const detector = new UtteranceDetector(-40, options.silenceMs);
    let eventId = 0;
    let started = false;
    let playing: { lastEventId: number; until: number } | null = null;
    let answers = 0;
    const pending = new Set<number>();

    const ping = () => {
      if (connection.socket.readyState !== connection.socket.OPEN) return;
      const id = ++eventId;
      pending.add(id);
      counters.pings++;
      connection.send({ type: 'ping', ping_event: { event_id: id, ping_ms: 20 } });
      later(ping, 1_000);
    };

    const answer = () => {
      if (connection.socket.readyState !== connection.socket.OPEN) return;
      const audio = toneReply(agent === 'agent-long' ? 4_000 : options.replyMs);
      connection.send({ type: 'agent_response', agent_response_event: { agent_response: 'Here is my answer.' } });
      for (let o = 0; o < audio.length; o += 3200) {
        connection.send({
          type: 'audio',
          audio_event: {
            audio_base_64: Buffer.from(audio.subarray(o, o + 3200)).toString('base64'),
            event_id: ++eventId,
          },
        });
      }
      playing = { lastEventId: eventId, until: Date.now() + audio.length / 8 };
      answers++;
      if (agent === 'agent-drop' && answers === 1) later(() => connection.socket.terminate(), 300);
    };

    connection.socket.on('message', (data, isBinary) => {
      const message = parsed(data, isBinary);
      if (!message) return;
      if (typeof message.user_audio_chunk === 'string') {
        if (!started) return;
        connection.audioFrames++;
        const edge = detector.frame(Buffer.from(message.user_audio_chunk, 'base64'));
        if (edge === 'start' && playing && Date.now() < playing.until) {
          counters.interruptions++;
          connection.send({ type: 'interruption', interruption_event: { event_id: playing.lastEventId } });
          playing = null;
        } else if (edge === 'end') {
          connection.send({ type: 'user_transcript', user_transcription_event: { user_transcript: 'I need help.' } });
          later(answer, options.replyDelayMs);
        }
        return;
      }
      connection.received.push(message);
      if (message.type === 'pong') {
        const id = Number(message.event_id);
        if (pending.delete(id)) counters.pongs++;
        else counters.badPongs++;
        return;
      }
      if (message.type !== 'conversation_initiation_client_data' || started) return;
      initiations.push(message);
      if (revoked) return connection.socket.close(1008, 'Invalid API key');
      if (CLOSES[agent]) return connection.socket.close(1008, CLOSES[agent]);
      const format = agent === 'agent-pcm' ? 'pcm_16000' : 'ulaw_8000';
      started = true;
      connection.send({
        type: 'conversation_initiation_metadata',
        conversation_initiation_metadata_event: {
          conversation_id: `conv_mock${Math.random().toString(36).slice(2)}`,
          agent_output_audio_format: format,
          user_input_audio_format: format,
        },
      });
      later(ping, 1_000);
    });
  }

  return Object.assign(mock, { initiations, counters });
}
