// The module object itself (not a namespace copy), so the spy sees the validator's calls.
import tls from 'node:tls';
import { FormatProviderValidator } from '../../src/infrastructure/providers/format.provider-validator';
import { createProviderValidator } from '../../src/infrastructure/providers/provider-validator.factory';
import { describeProviderValidatorContract } from './provider-validator.contract';

/** Any attempt to reach the network at all, since format mode must make none. */
function networkAttempts(): { count(): number; restore(): void } {
  const fetchSpy = jest.spyOn(globalThis, 'fetch');
  const tlsSpy = jest.spyOn(tls, 'connect');
  return {
    count: () => fetchSpy.mock.calls.length + tlsSpy.mock.calls.length,
    restore: () => {
      fetchSpy.mockRestore();
      tlsSpy.mockRestore();
    },
  };
}

let attempts: ReturnType<typeof networkAttempts> | undefined;

describeProviderValidatorContract('format', {
  start: async () => {
    attempts = networkAttempts();
    return {
      validator: createProviderValidator({
        mode: 'format',
        // Unreachable on purpose, and the probe asked for: format mode must use neither.
        openaiApiBase: 'http://127.0.0.1:1/v1',
        elevenlabsApiBase: 'http://127.0.0.1:1/v1',
        probeCustomEndpoints: true,
      }),
      customEndpoint: 'wss://agent.example.com:8443/v1/stream?session=abc&codec=pcmu',
      requestsSeen: () => attempts?.count() ?? 0,
    };
  },
  stop: async () => attempts?.restore(),
});

describe('FormatProviderValidator', () => {
  const validator = new FormatProviderValidator();

  it('reports format mode', () => {
    expect(validator.mode).toBe('format');
  });

  it('accepts a well-formed key that no provider has ever issued: it asks nobody', async () => {
    expect(await validator.validate({ provider: 'openai', apiKey: `sk-${'0'.repeat(20)}` })).toEqual({ ok: true });
  });

  it('accepts shapes at the bounds: sk- plus 20, 20 and 128 ElevenLabs characters, 3-character agent ids', async () => {
    expect(await validator.validate({ provider: 'openai', apiKey: `sk-${'a'.repeat(20)}` })).toEqual({ ok: true });
    expect(await validator.validate({ provider: 'elevenlabs', apiKey: 'a'.repeat(20), agentId: 'abc' })).toEqual({
      ok: true,
    });
    expect(
      await validator.validate({ provider: 'elevenlabs', apiKey: 'a'.repeat(128), agentId: 'a'.repeat(128) }),
    ).toEqual({ ok: true });
  });

  it('rejects one character past each bound', async () => {
    const results = await Promise.all([
      validator.validate({ provider: 'openai', apiKey: `sk-${'a'.repeat(19)}` }),
      validator.validate({ provider: 'elevenlabs', apiKey: 'a'.repeat(19), agentId: 'abc' }),
      validator.validate({ provider: 'elevenlabs', apiKey: 'a'.repeat(129), agentId: 'abc' }),
      validator.validate({ provider: 'elevenlabs', apiKey: 'a'.repeat(20), agentId: 'a'.repeat(129) }),
      validator.validate({
        provider: 'custom',
        endpoint: `wss://a.example/${'a'.repeat(2048 - 'wss://a.example/'.length + 1)}`,
      }),
    ]);
    expect(results.map((r) => (r.ok ? 'ok' : r.reason === 'rejected' ? r.field : r.reason))).toEqual([
      'openai_api_key',
      'elevenlabs_api_key',
      'elevenlabs_api_key',
      'elevenlabs_agent_id',
      'custom_endpoint',
    ]);
  });

  it('accepts custom endpoints on an IP address, an IPv6 address and with upper-case scheme', async () => {
    for (const endpoint of [
      'wss://203.0.113.7/agent',
      'wss://[2001:db8::1]:9443/agent',
      'WSS://Agent.Example.com/ws',
    ]) {
      expect(await validator.validate({ provider: 'custom', endpoint })).toEqual({ ok: true });
    }
  });
});
