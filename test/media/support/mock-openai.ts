/**
 * An OpenAI Realtime API server for tests, written from OpenAI's published client and server events
 * (GA interface): `session.created` on connect; `session.update` → `session.updated`;
 * `input_audio_buffer.append` feeds its server VAD (energy: `input_audio_buffer.speech_started` /
 * `speech_stopped` / `committed`); D ms after the end of an utterance a response: `response.created`,
 * `response.output_item.added`, `response.output_audio.delta` × n (G.711 µ-law when the session
 * asked `audio/pcmu`), `response.output_audio.done`, `response.done`. Caller speech while a response
 * plays is a barge-in: `response.done` with status `cancelled`; `conversation.item.truncate` is
 * answered `conversation.item.truncated` (or an `error` when `audio_end_ms` is past the item's audio).
 *
 * Behaviour by the connection's model (`?model=`) and key: a key containing `revoked` gets HTTP 401
 * on the upgrade; `mock-quota`: `error` insufficient_quota; `mock-ratelimit`: `error`
 * rate_limit_exceeded; `mock-missing`: `error` model_not_found; `mock-protocol`: `error`
 * unknown_parameter (all in answer to `session.update`); `mock-drop`: the socket destroyed 300 ms
 * after the first response; `mock-long`: 4 s answers; anything else: `replyMs` answers.
 */
import { toneReply } from './mock-agent';
import { MockProvider, parsed, ProviderConnection, startMockProvider } from './mock-provider-server';
import { UtteranceDetector } from './utterances';

export interface OpenAiMockOptions {
  replyDelayMs: number;
  replyMs: number;
  silenceMs: number;
}

export interface OpenAiMock extends MockProvider {
  /** Per connection: the session.update's session, the truncates received, the responses sent. */
  sessions: Record<string, unknown>[];
  truncates: { item_id: string; audio_end_ms: number }[];
  /** Responses cancelled by caller speech (the server VAD's barge-in). */
  counters: { cancelled: number };
}

const ERRORS: Record<string, { type: string; code: string; message: string; param?: string }> = {
  'mock-quota': {
    type: 'insufficient_quota',
    code: 'insufficient_quota',
    message: 'You exceeded your current quota, please check your plan and billing details.',
  },
  'mock-ratelimit': {
    type: 'requests',
    code: 'rate_limit_exceeded',
    message: 'Rate limit reached for requests.',
  },
  'mock-missing': {
    type: 'invalid_request_error',
    code: 'model_not_found',
    message: 'The model `mock-missing` does not exist or you do not have access to it.',
  },
  'mock-protocol': {
    type: 'invalid_request_error',
    code: 'unknown_parameter',
    message: "Unknown parameter: 'session.audio.input.format.rate'.",
    param: 'session.audio.input.format.rate',
  },
};

export async function startOpenAiMock(
  certificate: { key: string; cert: string },
  options: OpenAiMockOptions,
): Promise<OpenAiMock> {
  const sessions: Record<string, unknown>[] = [];
  const truncates: { item_id: string; audio_end_ms: number }[] = [];
  const counters = { cancelled: 0 };
  let ids = 0;
  const id = (prefix: string) => `${prefix}_mock${++ids}`;
  const mock = await startMockProvider(
    certificate,
    '/v1/realtime',
    (request) => (/revoked/.test(String(request.headers.authorization ?? '')) ? 401 : null),
    (connection, later) => serve(connection, later),
  );

  function serve(connection: ProviderConnection, later: (fn: () => void, ms: number) => void): void {
    const model = new URL(connection.url, 'wss://x').searchParams.get('model') ?? '';
    const send = (type: string, body: Record<string, unknown> = {}) =>
      connection.send({ type, event_id: id('event'), ...body });
    const detector = new UtteranceDetector(-40, options.silenceMs);
    const items = new Map<string, number>();
    let playing: { itemId: string; responseId: string; until: number } | null = null;
    let responses = 0;
    send('session.created', { session: { id: id('sess'), object: 'realtime.session', type: 'realtime', model } });

    const respond = () => {
      if (connection.socket.readyState !== connection.socket.OPEN) return;
      const responseId = id('resp');
      const itemId = id('item');
      const audio = toneReply(model === 'mock-long' ? 4_000 : options.replyMs);
      send('response.created', { response: { id: responseId, object: 'realtime.response', status: 'in_progress' } });
      send('response.output_item.added', {
        response_id: responseId,
        output_index: 0,
        item: { id: itemId, object: 'realtime.item', type: 'message', role: 'assistant', status: 'in_progress' },
      });
      for (let o = 0; o < audio.length; o += 3200) {
        send('response.output_audio.delta', {
          response_id: responseId,
          item_id: itemId,
          output_index: 0,
          content_index: 0,
          delta: Buffer.from(audio.subarray(o, o + 3200)).toString('base64'),
        });
      }
      items.set(itemId, audio.length / 8);
      playing = { itemId, responseId, until: Date.now() + audio.length / 8 };
      send('response.output_audio.done', {
        response_id: responseId,
        item_id: itemId,
        output_index: 0,
        content_index: 0,
      });
      send('response.done', { response: { id: responseId, object: 'realtime.response', status: 'completed' } });
      responses++;
      if (model === 'mock-drop' && responses === 1) later(() => connection.socket.terminate(), 300);
    };

    connection.socket.on('message', (data, isBinary) => {
      const message = parsed(data, isBinary);
      if (!message)
        return send('error', { error: { type: 'invalid_request_error', code: 'invalid_json', message: 'bad JSON' } });
      if (message.type !== 'input_audio_buffer.append') connection.received.push(message);
      switch (message.type) {
        case 'session.update': {
          const error = ERRORS[model];
          if (error) {
            send('error', { error: { ...error, event_id: message.event_id ?? null } });
            if (model !== 'mock-protocol') later(() => connection.socket.close(1000), 50);
            return;
          }
          sessions.push(message.session as Record<string, unknown>);
          return send('session.updated', { session: message.session });
        }
        case 'input_audio_buffer.append': {
          connection.audioFrames++;
          const edge = detector.frame(Buffer.from(String(message.audio ?? ''), 'base64'));
          if (edge === 'start') {
            send('input_audio_buffer.speech_started', { audio_start_ms: 0, item_id: id('item') });
            if (playing && Date.now() < playing.until) {
              counters.cancelled++;
              send('response.done', { response: { id: playing.responseId, status: 'cancelled' } });
              playing = null;
            }
          } else if (edge === 'end') {
            send('input_audio_buffer.speech_stopped', { audio_end_ms: 0, item_id: id('item') });
            send('input_audio_buffer.committed', { item_id: id('item') });
            later(respond, options.replyDelayMs);
          }
          return;
        }
        case 'conversation.item.truncate': {
          const itemId = String(message.item_id);
          const end = Number(message.audio_end_ms);
          const length = items.get(itemId);
          if (length === undefined || !(end >= 0) || end > length) {
            return send('error', {
              error: {
                type: 'invalid_request_error',
                code: 'invalid_value',
                message: 'audio_end_ms past the audio',
                event_id: message.event_id ?? null,
              },
            });
          }
          truncates.push({ item_id: itemId, audio_end_ms: end });
          return send('conversation.item.truncated', { item_id: itemId, content_index: 0, audio_end_ms: end });
        }
        default:
          return;
      }
    });
  }

  return Object.assign(mock, { sessions, truncates, counters });
}
