import { ELEVENLABS_CONVAI_URL } from '../../../media-gateway/src/agent/elevenlabs-convai.agent';
import { OPENAI_DEFAULT_MODEL, OPENAI_REALTIME_URL } from '../../../media-gateway/src/agent/openai-realtime.agent';
import { loadSettings } from '../../../media-gateway/src/settings';
import { OPENAI_DEFAULT_REALTIME_MODEL } from '../../../src/infrastructure/providers/openai.validator';
import { loadConfig } from '../../../src/platform/config/app-config';

/**
 * PROVIDER_VALIDATION=live checks a key where it is entered against the endpoints the media gateway
 * will use with it (issue #27, point 6): same host and API version, and for OpenAI the same model.
 */
describe('provider keys are checked against the endpoints the media gateway calls', () => {
  const config = loadConfig({});
  const gateway = loadSettings({
    TRUNKLINE_URL: 'https://trunkline.example.com:8443/v1',
    TRUNKLINE_GATEWAY_KEY: `sk_live_${'a'.repeat(32)}`,
  });

  it('OpenAI: the Realtime socket is {OPENAI_API_BASE}/realtime on the same host, and both default to the same model', () => {
    const rest = new URL(config.openaiApiBase);
    const realtime = new URL(gateway.openaiUrl);
    expect(gateway.openaiUrl).toBe(OPENAI_REALTIME_URL);
    expect(realtime.host).toBe(rest.host);
    expect(realtime.pathname).toBe(`${rest.pathname}/realtime`);
    expect(OPENAI_DEFAULT_REALTIME_MODEL).toBe(OPENAI_DEFAULT_MODEL);
  });

  it('ElevenLabs: the conversation socket is {ELEVENLABS_API_BASE}/convai/conversation on the same host as the agent check', () => {
    const rest = new URL(config.elevenlabsApiBase);
    const convai = new URL(gateway.elevenlabsUrl);
    expect(gateway.elevenlabsUrl).toBe(ELEVENLABS_CONVAI_URL);
    expect(convai.host).toBe(rest.host);
    expect(convai.pathname).toBe(`${rest.pathname}/convai/conversation`);
  });

  it('refuses a provider URL that is not ws:// or wss://, or carries credentials', () => {
    const base = { TRUNKLINE_URL: 'https://t.example.com/v1', TRUNKLINE_GATEWAY_KEY: `sk_live_${'a'.repeat(32)}` };
    expect(() => loadSettings({ ...base, MEDIA_GATEWAY_OPENAI_URL: 'https://api.openai.com/v1/realtime' })).toThrow(
      /MEDIA_GATEWAY_OPENAI_URL/,
    );
    expect(() => loadSettings({ ...base, MEDIA_GATEWAY_ELEVENLABS_URL: 'wss://u:p@api.elevenlabs.io/x' })).toThrow(
      /MEDIA_GATEWAY_ELEVENLABS_URL/,
    );
  });
});
