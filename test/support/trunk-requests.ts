import { randomBytes } from 'node:crypto';

let counter = 0;
const unique = () => `${Date.now().toString(36)}${(counter++).toString(36)}${randomBytes(3).toString('hex')}`;

export const OPENAI_KEY = `sk-test-${'a1B2'.repeat(10)}`;
export const ELEVENLABS_KEY = 'e1'.repeat(16);

/** A valid create body; every call gets its own sip_username and name. */
export function trunkBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  const id = unique();
  return {
    name: `Line ${id}`,
    ai_provider: 'openai',
    sip_username: `line-${id}`,
    sip_password: 'correct-horse-battery',
    openai_api_key: OPENAI_KEY,
    ...overrides,
  };
}

export function elevenlabsBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  const { openai_api_key: _drop, ...base } = trunkBody({
    ai_provider: 'elevenlabs',
    elevenlabs_api_key: ELEVENLABS_KEY,
    elevenlabs_agent_id: 'agent_123',
    ...overrides,
  });
  return base;
}

export function customBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  const { openai_api_key: _drop, ...base } = trunkBody({
    ai_provider: 'custom',
    custom_endpoint: 'wss://agent.example.com/ws',
    ...overrides,
  });
  return base;
}
