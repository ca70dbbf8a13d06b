import { LiveProviderValidator } from '../../src/infrastructure/providers/live.provider-validator';
import { createProviderValidator } from '../../src/infrastructure/providers/provider-validator.factory';
import {
  startHttpStub,
  startWebSocketStub,
  testCertificate,
  type HttpStub,
  type WebSocketStub,
} from '../support/provider-stubs';
import { describeProviderValidatorContract, WELL_FORMED } from './provider-validator.contract';

/** Stand-ins that know exactly the contract's well-formed keys and agents, as a provider would. */
async function startProviders() {
  const openai = await startHttpStub(({ headers }) =>
    WELL_FORMED.openaiKeys.some((key) => headers.authorization === `Bearer ${key}`) ? 200 : 401,
  );
  const elevenlabs = await startHttpStub(({ path, headers }) => {
    if (!WELL_FORMED.elevenlabsKeys.includes(String(headers['xi-api-key']))) return 401;
    if (path === '/v1/user') return 200;
    return WELL_FORMED.agentIds.some((id) => path === `/v1/convai/agents/${id}`) ? 200 : 404;
  });
  const certificate = await testCertificate();
  const agent = await startWebSocketStub(certificate, 'accept');
  return { openai, elevenlabs, agent, ca: certificate.cert };
}

let stubs: { openai: HttpStub; elevenlabs: HttpStub; agent: WebSocketStub } | undefined;

describeProviderValidatorContract('live, against local provider stand-ins', {
  start: async () => {
    const { ca, ...started } = await startProviders();
    stubs = started;
    return {
      validator: createProviderValidator({
        mode: 'live',
        openaiApiBase: `${started.openai.url}/v1`,
        elevenlabsApiBase: `${started.elevenlabs.url}/v1`,
        timeoutMs: 3000,
        probeCustomEndpoints: true,
        ca,
      }),
      customEndpoint: `wss://127.0.0.1:${started.agent.port}/v1/stream?session=abc&codec=pcmu`,
      requestsSeen: () =>
        started.openai.requests.length + started.elevenlabs.requests.length + started.agent.connections(),
    };
  },
  stop: async () => {
    await Promise.all([stubs?.openai.close(), stubs?.elevenlabs.close(), stubs?.agent.close()]);
  },
});

describe('createProviderValidator', () => {
  const bases = { openaiApiBase: 'https://api.openai.com/v1', elevenlabsApiBase: 'https://api.elevenlabs.io/v1' };

  it('builds the live validator for live mode', () => {
    const validator = createProviderValidator({ mode: 'live', ...bases });
    expect(validator).toBeInstanceOf(LiveProviderValidator);
    expect(validator.mode).toBe('live');
  });

  it('refuses a timeout that is not a positive whole number of ms', () => {
    expect(() => createProviderValidator({ mode: 'live', ...bases, timeoutMs: 0 })).toThrow(RangeError);
    expect(() => createProviderValidator({ mode: 'live', ...bases, timeoutMs: 1.5 })).toThrow(RangeError);
  });

  it('refuses an API base that is not a URL at construction, not at the first trunk', () => {
    expect(() => createProviderValidator({ mode: 'live', ...bases, openaiApiBase: 'api.openai.com' })).toThrow();
  });
});
