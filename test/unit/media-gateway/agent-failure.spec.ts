import { AgentConnectError } from '../../../media-gateway/src/agent/agent.port';
import { classifyHttpStatus, classifyRefusal } from '../../../media-gateway/src/agent/agent-failure';
import { connectFailure } from '../../../media-gateway/src/call/media-leg';

/** docs/media-gateway.md, "Agent failures": the provider's words → class, retryable, SIP answer and phrase. */
describe('agent failures as data', () => {
  const answer = (error: AgentConnectError) => {
    const f = connectFailure(error);
    return { failureClass: f.failureClass, retryable: f.retryable, sipCode: f.sipCode, phrase: f.phrase };
  };

  it.each([
    [
      'OpenAI invalid_api_key',
      classifyRefusal('invalid_api_key', 'Incorrect API key provided'),
      'agent_auth',
      false,
      'Agent authentication refused',
    ],
    [
      'OpenAI insufficient_quota',
      classifyRefusal('insufficient_quota', 'You exceeded your current quota'),
      'agent_quota',
      false,
      'Agent quota exhausted',
    ],
    [
      'OpenAI rate_limit_exceeded',
      classifyRefusal('rate_limit_exceeded', 'Rate limit reached'),
      'agent_quota',
      true,
      'Agent rate limited',
    ],
    [
      'OpenAI model_not_found',
      classifyRefusal('model_not_found', 'The model does not exist'),
      'agent_error',
      false,
      'Agent not found',
    ],
    [
      'OpenAI unknown_parameter',
      classifyRefusal('unknown_parameter', "Unknown parameter: 'x'"),
      'agent_error',
      false,
      'Agent protocol error',
    ],
    [
      'OpenAI server_error',
      classifyRefusal('server_error', 'The server had an error'),
      'agent_error',
      true,
      'Agent protocol error',
    ],
    [
      'ElevenLabs close: invalid key',
      classifyRefusal(1008, 'Invalid API key'),
      'agent_auth',
      false,
      'Agent authentication refused',
    ],
    [
      'ElevenLabs close: quota',
      classifyRefusal(1008, 'This request exceeds your quota limit'),
      'agent_quota',
      false,
      'Agent quota exhausted',
    ],
    [
      'ElevenLabs close: no agent',
      classifyRefusal(1008, 'The AI agent you are trying to reach does not exist.'),
      'agent_error',
      false,
      'Agent not found',
    ],
    ['upgrade 401', classifyHttpStatus(401), 'agent_auth', false, 'Agent authentication refused'],
    ['upgrade 429', classifyHttpStatus(429), 'agent_quota', true, 'Agent rate limited'],
    ['upgrade 402', classifyHttpStatus(402), 'agent_quota', false, 'Agent quota exhausted'],
    ['upgrade 404', classifyHttpStatus(404), 'agent_error', false, 'Agent not found'],
    ['upgrade 200 (not a WebSocket)', classifyHttpStatus(200), 'agent_error', false, 'Agent protocol error'],
  ])('%s → 503, its phrase and class', (_what, error, failureClass, retryable, phrase) => {
    expect(answer(error)).toEqual({ failureClass, retryable, sipCode: 503, phrase });
  });

  it('no session in time → 480 Agent did not answer (agent_timeout)', () => {
    expect(answer(new AgentConnectError('agent_timeout', true, 'no connection within 5000 ms'))).toEqual({
      failureClass: 'agent_timeout',
      retryable: true,
      sipCode: 480,
      phrase: 'Agent did not answer',
    });
  });

  it('never puts the provider words in the phrase (they may echo a key or a URL)', () => {
    const failure = connectFailure(classifyRefusal('invalid_api_key', 'Incorrect API key provided: sk-abc***xyz'));
    expect(failure.phrase).not.toMatch(/sk-/);
    expect(failure.message).not.toMatch(/sk-abc/);
    expect(classifyRefusal(1008, `bad key ${'x'.repeat(32)}`).reason).not.toContain('x'.repeat(20));
  });
});
