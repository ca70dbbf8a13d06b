import { SETTLE_DEADLINE_MS } from '../support/deadlines';
import { until } from '../support/free-port';
import { ElevenLabsValidator } from '../../src/infrastructure/providers/elevenlabs.validator';
import { createProviderValidator } from '../../src/infrastructure/providers/provider-validator.factory';
import type { ProviderValidator, ValidationResult } from '../../src/infrastructure/providers/provider-validator.port';
import { WELL_FORMED } from '../contract/provider-validator.contract';
import { closedPort, startHttpStub, type HttpStub, type StubAnswer } from '../support/provider-stubs';

/**
 * The validators' timeout where the stub answers: as long as anything may take on a busy machine
 * (at 300 ms a loaded machine had a 200 from the stub count as "did not answer").
 */
const TIMEOUT_MS = SETTLE_DEADLINE_MS;
/** Where the stub never answers, the timeout is what ends the request: short keeps the suite quick. */
const HANG_TIMEOUT_MS = 300;
const OPENAI_KEY = WELL_FORMED.openaiKeys[1];
const EL_KEY = WELL_FORMED.elevenlabsKeys[1];
const AGENT = WELL_FORMED.agentIds[0];

function liveValidator(base: { openai?: string; elevenlabs?: string }, timeoutMs = TIMEOUT_MS): ProviderValidator {
  return createProviderValidator({
    mode: 'live',
    openaiApiBase: base.openai ?? 'http://127.0.0.1:1/v1',
    elevenlabsApiBase: base.elevenlabs ?? 'http://127.0.0.1:1/v1',
    timeoutMs,
  });
}

function expectNoSecret(result: ValidationResult, ...secrets: string[]): void {
  for (const secret of secrets) expect(JSON.stringify(result)).not.toContain(secret);
}

describe('OpenAI key validation against a stand-in', () => {
  const stubs: HttpStub[] = [];
  const stub = async (answer: StubAnswer, headers?: Record<string, string>) => {
    const started = await startHttpStub(answer, headers);
    stubs.push(started);
    return started;
  };
  const validateOpenAi = (openai: HttpStub | string, timeoutMs = TIMEOUT_MS) =>
    liveValidator({ openai: typeof openai === 'string' ? openai : `${openai.url}/v1` }, timeoutMs).validate({
      provider: 'openai',
      apiKey: OPENAI_KEY,
    });
  afterEach(async () => {
    await Promise.all(stubs.splice(0).map((s) => s.close()));
  });

  it('accepts a key answered 200, sent as a Bearer token to GET {base}/models/{the media gateway default model}', async () => {
    const openai = await stub(() => 200);
    expect(await validateOpenAi(openai)).toEqual({ ok: true });
    expect(openai.requests).toEqual([expect.objectContaining({ method: 'GET', path: '/v1/models/gpt-realtime' })]);
    expect(openai.requests[0].headers.authorization).toBe(`Bearer ${OPENAI_KEY}`);
  });

  it('joins a base that ends in a slash without doubling it', async () => {
    const openai = await stub(() => 200);
    await validateOpenAi(`${openai.url}/v1/`);
    expect(openai.requests[0].path).toBe('/v1/models/gpt-realtime');
  });

  it("checks the trunk's provider_settings.model, the one the media gateway opens its Realtime session with; 404 names provider_settings", async () => {
    const openai = await stub(({ path }) => (path === '/v1/models/gpt-realtime-mini' ? 200 : 404));
    const validator = liveValidator({ openai: `${openai.url}/v1` });
    expect(await validator.validate({ provider: 'openai', apiKey: OPENAI_KEY, model: 'gpt-realtime-mini' })).toEqual({
      ok: true,
    });
    const missing = await validator.validate({ provider: 'openai', apiKey: OPENAI_KEY, model: 'no-such-model' });
    expect(missing).toMatchObject({ ok: false, reason: 'rejected', field: 'provider_settings' });
    expect(openai.requests.map((r) => r.path)).toEqual(['/v1/models/gpt-realtime-mini', '/v1/models/no-such-model']);
    expectNoSecret(missing, OPENAI_KEY);
  });

  it.each([401, 403])('rejects a key answered %i on openai_api_key, without the key in the result', async (status) => {
    const result = await validateOpenAi(await stub(() => status));
    expect(result).toMatchObject({ ok: false, reason: 'rejected', field: 'openai_api_key' });
    expectNoSecret(result, OPENAI_KEY);
  });

  it.each([400, 422])('rejects a key answered with another client error (%i)', async (status) => {
    expect(await validateOpenAi(await stub(() => status))).toMatchObject({
      ok: false,
      reason: 'rejected',
      field: 'openai_api_key',
    });
  });

  it('accepts a rate-limited key (429): OpenAI authenticates before it rate-limits', async () => {
    expect(await validateOpenAi(await stub(() => 429))).toEqual({ ok: true });
  });

  it.each([500, 502, 503])('reports a server error (%i) as unreachable', async (status) => {
    const result = await validateOpenAi(await stub(() => status));
    expect(result).toMatchObject({ ok: false, reason: 'unreachable' });
    expectNoSecret(result, OPENAI_KEY);
  });

  it('reports a provider that never answers as unreachable once the timeout passes', async () => {
    const provider = await stub(() => 'hang');
    const result = await validateOpenAi(provider, HANG_TIMEOUT_MS);
    expect(result).toEqual({
      ok: false,
      reason: 'unreachable',
      message: `OpenAI did not answer within ${HANG_TIMEOUT_MS} ms`,
    });
    // The validator gave up by itself (the stub never answers, never closes): its own timeout.
    await until(
      'the validator closes the request it gave up on',
      async () => provider.abandoned() === 1,
      SETTLE_DEADLINE_MS,
    );
    expect(provider.abandoned()).toBe(1);
  });

  it('reports a refused connection as unreachable, naming the cause', async () => {
    const result = await validateOpenAi(`http://127.0.0.1:${await closedPort()}/v1`);
    expect(result).toEqual({ ok: false, reason: 'unreachable', message: 'could not reach OpenAI (ECONNREFUSED)' });
  });

  it('does not follow a redirect with the key: unreachable, and the target sees nothing', async () => {
    const target = await stub(() => 200);
    const result = await validateOpenAi(await stub(() => 302, { location: `${target.url}/v1/models` }));
    expect(result).toMatchObject({ ok: false, reason: 'unreachable' });
    expect(target.requests).toHaveLength(0);
  });
});

describe('ElevenLabs key and agent validation against a stand-in', () => {
  const stubs: HttpStub[] = [];
  const stub = async (answers: { user: number | 'hang'; agent: number | 'hang' }) => {
    const started = await startHttpStub(({ path }) => (path === '/v1/user' ? answers.user : answers.agent));
    stubs.push(started);
    return started;
  };
  const validateElevenLabs = (elevenlabs: HttpStub | string, agentId = AGENT, timeoutMs = TIMEOUT_MS) =>
    liveValidator(
      { elevenlabs: typeof elevenlabs === 'string' ? elevenlabs : `${elevenlabs.url}/v1` },
      timeoutMs,
    ).validate({
      provider: 'elevenlabs',
      apiKey: EL_KEY,
      agentId,
    });
  afterEach(async () => {
    await Promise.all(stubs.splice(0).map((s) => s.close()));
  });

  it('accepts a known key and agent: GET /user, then GET /convai/agents/{id}, key in xi-api-key', async () => {
    const elevenlabs = await stub({ user: 200, agent: 200 });
    expect(await validateElevenLabs(elevenlabs)).toEqual({ ok: true });
    expect(elevenlabs.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      'GET /v1/user',
      `GET /v1/convai/agents/${AGENT}`,
    ]);
    for (const request of elevenlabs.requests) {
      expect(request.headers['xi-api-key']).toBe(EL_KEY);
      expect(request.headers.authorization).toBeUndefined();
    }
  });

  it('URL-encodes the agent id into the path', async () => {
    const elevenlabs = await stub({ user: 200, agent: 404 });
    await new ElevenLabsValidator({ apiBase: `${elevenlabs.url}/v1`, timeoutMs: TIMEOUT_MS }).validate(
      EL_KEY,
      'a/../b?c',
    );
    expect(elevenlabs.requests[1].path).toBe('/v1/convai/agents/a%2F..%2Fb%3Fc');
  });

  it.each([401, 403])(
    'rejects a key answered %i by /user on elevenlabs_api_key, and skips the agent check',
    async (status) => {
      const elevenlabs = await stub({ user: status, agent: 200 });
      const result = await validateElevenLabs(elevenlabs);
      expect(result).toMatchObject({ ok: false, reason: 'rejected', field: 'elevenlabs_api_key' });
      expectNoSecret(result, EL_KEY);
      expect(elevenlabs.requests).toHaveLength(1);
    },
  );

  it('rejects an agent the provider does not know (404) on elevenlabs_agent_id', async () => {
    const result = await validateElevenLabs(await stub({ user: 200, agent: 404 }));
    expect(result).toMatchObject({ ok: false, reason: 'rejected', field: 'elevenlabs_agent_id' });
    expectNoSecret(result, EL_KEY);
  });

  it.each([401, 403])('rejects on elevenlabs_api_key when the agent check answers %i', async (status) => {
    expect(await validateElevenLabs(await stub({ user: 200, agent: status }))).toMatchObject({
      ok: false,
      reason: 'rejected',
      field: 'elevenlabs_api_key',
    });
  });

  it('goes on to the agent check when /user is rate-limited (429): the key was authenticated', async () => {
    const elevenlabs = await stub({ user: 429, agent: 200 });
    expect(await validateElevenLabs(elevenlabs)).toEqual({ ok: true });
    expect(elevenlabs.requests).toHaveLength(2);
  });

  it('reports a rate-limited agent check (429) as unreachable: the agent is unproven', async () => {
    expect(await validateElevenLabs(await stub({ user: 200, agent: 429 }))).toMatchObject({
      ok: false,
      reason: 'unreachable',
    });
  });

  it.each([
    ['/user', { user: 500, agent: 200 } as const],
    ['the agent check', { user: 200, agent: 500 } as const],
  ])('reports a server error from %s as unreachable', async (_where, answers) => {
    expect(await validateElevenLabs(await stub(answers))).toMatchObject({ ok: false, reason: 'unreachable' });
  });

  it('bounds both requests together by one timeout', async () => {
    const provider = await stub({ user: 200, agent: 'hang' });
    const result = await validateElevenLabs(provider, AGENT, HANG_TIMEOUT_MS);
    expect(result).toEqual({
      ok: false,
      reason: 'unreachable',
      message: `ElevenLabs did not answer within ${HANG_TIMEOUT_MS} ms`,
    });
    await until(
      'the validator closes the request it gave up on',
      async () => provider.abandoned() === 1,
      SETTLE_DEADLINE_MS,
    );
    expect(provider.abandoned()).toBe(1);
  });

  it('reports a refused connection as unreachable', async () => {
    const result = await validateElevenLabs(`http://127.0.0.1:${await closedPort()}/v1`);
    expect(result).toEqual({ ok: false, reason: 'unreachable', message: 'could not reach ElevenLabs (ECONNREFUSED)' });
  });
});
