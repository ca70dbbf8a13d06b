import type {
  ProviderCredentials,
  ProviderField,
  ProviderValidator,
} from '../../src/infrastructure/providers/provider-validator.port';

/** Keys in every documented shape. The live spec's provider stand-ins accept exactly these. */
export const WELL_FORMED = {
  openaiKeys: [
    'sk-3xAmPlEkEy0123456789abcdefGHIJ',
    'sk-proj-Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4z_Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4z-AbCd',
    'sk-svcacct-Zy9xWv8uTs7rQp6oNm5lKj4iHg3fEd2cBa1_ZyXwVuTs',
  ],
  elevenlabsKeys: ['0123456789abcdef0123456789abcdef', 'sk_0123456789abcdef0123456789abcdef0123456789abcdef'],
  agentIds: ['agent_01jxk3m5n7p9q2r4s6t8v0w2y4', 'J3Pbu5gP6NNKBscdCdwB'],
};

/** Appears in every malformed value below, so that an echo in a message is easy to catch. */
const MARK = 'L3AKM4RK';
const KEY_TAIL = 'aaaaaaaaaaaaaaaaaaaaaaaa';
const GOOD_EL_KEY = WELL_FORMED.elevenlabsKeys[0];
const GOOD_AGENT = WELL_FORMED.agentIds[0];

interface Malformed {
  name: string;
  credentials: ProviderCredentials;
  field: ProviderField;
}

const openai = (name: string, apiKey: string): Malformed => ({
  name,
  credentials: { provider: 'openai', apiKey },
  field: 'openai_api_key',
});
const elevenlabs = (name: string, apiKey: string, agentId: string, field: ProviderField): Malformed => ({
  name,
  credentials: { provider: 'elevenlabs', apiKey, agentId },
  field,
});
const custom = (name: string, endpoint: string): Malformed => ({
  name,
  credentials: { provider: 'custom', endpoint },
  field: 'custom_endpoint',
});

export const MALFORMED: Malformed[] = [
  openai('an empty OpenAI key', ''),
  openai('an OpenAI key without the sk- prefix', `pk-${MARK}${KEY_TAIL}`),
  openai('an OpenAI key shorter than sk- plus 20', `sk-${MARK}`),
  openai('an OpenAI key with a trailing space', `sk-${MARK}${KEY_TAIL} `),
  openai('an OpenAI key that would inject an HTTP header', `sk-${MARK}${KEY_TAIL}\r\nX-Injected: 1`),
  openai('an OpenAI key pasted with its Bearer prefix', `Bearer sk-${MARK}${KEY_TAIL}`),
  openai('an OpenAI key of 600 characters', `sk-${MARK}${'a'.repeat(600)}`),
  elevenlabs('an ElevenLabs key of 8 characters', MARK, GOOD_AGENT, 'elevenlabs_api_key'),
  elevenlabs('an ElevenLabs key with a symbol', `${MARK}0123456789abcdef!`, GOOD_AGENT, 'elevenlabs_api_key'),
  elevenlabs('an ElevenLabs key with a newline', `${MARK}0123456789abcdef\n`, GOOD_AGENT, 'elevenlabs_api_key'),
  elevenlabs('an ElevenLabs key of 138 characters', `${MARK}${'a'.repeat(130)}`, GOOD_AGENT, 'elevenlabs_api_key'),
  elevenlabs('a malformed key and a malformed agent id (the key is named)', `${MARK}!`, 'a b', 'elevenlabs_api_key'),
  elevenlabs('an empty agent id', GOOD_EL_KEY, '', 'elevenlabs_agent_id'),
  elevenlabs('an agent id of 2 characters', GOOD_EL_KEY, 'ab', 'elevenlabs_agent_id'),
  elevenlabs('an agent id with a path', GOOD_EL_KEY, `../${MARK}`, 'elevenlabs_agent_id'),
  elevenlabs('an agent id with a space', GOOD_EL_KEY, `agent ${MARK}`, 'elevenlabs_agent_id'),
  elevenlabs('an agent id of 138 characters', GOOD_EL_KEY, `${MARK}${'a'.repeat(130)}`, 'elevenlabs_agent_id'),
  custom('a ws:// endpoint', `ws://agent.example.com/${MARK}`),
  custom('an https:// endpoint', `https://agent.example.com/${MARK}`),
  custom('a relative endpoint', `/agent/${MARK}`),
  custom('an endpoint without a host', 'wss://'),
  custom('an endpoint with three slashes', `wss:///${MARK}`),
  custom('an endpoint with a leading blank', ` wss://agent.example.com/${MARK}`),
  custom('an endpoint with user:password@', `wss://user:${MARK}@agent.example.com/ws`),
  custom('an endpoint with a fragment', `wss://agent.example.com/ws#${MARK}`),
  custom('an endpoint longer than 2048 characters', `wss://agent.example.com/${MARK}${'a'.repeat(2048)}`),
  custom('an endpoint that is not a URL', `${MARK} not a url`),
];

export interface ProviderValidatorSubject {
  validator: ProviderValidator;
  /** A wss:// endpoint (with port, path and query) that the validator accepts. */
  customEndpoint: string;
  /** Network requests made so far (to provider stand-ins, or attempted at all). */
  requestsSeen(): number;
}

export interface ProviderValidatorHarness {
  start(): Promise<ProviderValidatorSubject>;
  stop(): Promise<void>;
}

export function describeProviderValidatorContract(adapter: string, harness: ProviderValidatorHarness): void {
  describe(`ProviderValidator contract (${adapter})`, () => {
    let subject: ProviderValidatorSubject;
    beforeAll(async () => {
      subject = await harness.start();
    });
    afterAll(() => harness.stop());

    it.each(WELL_FORMED.openaiKeys)('accepts the OpenAI key %s', async (apiKey) => {
      expect(await subject.validator.validate({ provider: 'openai', apiKey })).toEqual({ ok: true });
    });

    it.each(WELL_FORMED.elevenlabsKeys.map((key, i) => [key, WELL_FORMED.agentIds[i]]))(
      'accepts the ElevenLabs key %s with agent %s',
      async (apiKey, agentId) => {
        expect(await subject.validator.validate({ provider: 'elevenlabs', apiKey, agentId })).toEqual({ ok: true });
      },
    );

    it('accepts a wss:// custom endpoint with a port, a path and a query', async () => {
      expect(await subject.validator.validate({ provider: 'custom', endpoint: subject.customEndpoint })).toEqual({
        ok: true,
      });
    });

    it.each(MALFORMED.map((c) => [c.name, c] as const))('rejects %s, naming the field', async (_name, malformed) => {
      const result = await subject.validator.validate(malformed.credentials);
      expect(result).toEqual({ ok: false, reason: 'rejected', field: malformed.field, message: expect.any(String) });
    });

    it('never repeats a submitted value in a message', async () => {
      for (const malformed of MALFORMED) {
        const result = await subject.validator.validate(malformed.credentials);
        expect(result.ok ? '' : result.message).not.toContain(MARK);
      }
    });

    it('rejects malformed values without asking a provider', async () => {
      const before = subject.requestsSeen();
      for (const malformed of MALFORMED) await subject.validator.validate(malformed.credentials);
      expect(subject.requestsSeen()).toBe(before);
    });

    it('answers concurrent validations independently', async () => {
      const results = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          subject.validator.validate(
            i % 2 === 0
              ? { provider: 'openai', apiKey: WELL_FORMED.openaiKeys[i % 3] }
              : { provider: 'openai', apiKey: `sk-${MARK}` },
          ),
        ),
      );
      expect(results.map((r) => r.ok)).toEqual(Array.from({ length: 20 }, (_, i) => i % 2 === 0));
    });
  });
}
