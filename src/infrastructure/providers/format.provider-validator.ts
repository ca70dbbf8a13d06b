import {
  rejected,
  VALID,
  type ProviderCredentials,
  type ProviderValidator,
  type ValidationResult,
} from './provider-validator.port';

// `-` and `_` cover the prefixed shapes (sk-proj-, sk-svcacct-, sk_…). The upper bounds keep a
// pasted document out of an HTTP header; real keys are far shorter (sk-proj- keys ≈ 164 chars).
const OPENAI_KEY = /^sk-[A-Za-z0-9_-]{20,500}$/;
const ELEVENLABS_KEY = /^[A-Za-z0-9_-]{20,128}$/;
const ELEVENLABS_AGENT_ID = /^[A-Za-z0-9_-]{3,128}$/;
const MAX_ENDPOINT_LENGTH = 2048;

/**
 * Offline checks. Messages describe the expected shape and never repeat the submitted value:
 * keys are secrets, and an endpoint URL may carry a token in its query.
 */
export function checkCredentialFormat(credentials: ProviderCredentials): ValidationResult {
  switch (credentials.provider) {
    case 'openai':
      return OPENAI_KEY.test(credentials.apiKey)
        ? VALID
        : rejected(
            'openai_api_key',
            'openai_api_key is not an OpenAI API key: expected sk- followed by at least 20 letters, digits, - or _',
          );
    case 'elevenlabs':
      if (!ELEVENLABS_KEY.test(credentials.apiKey)) {
        return rejected(
          'elevenlabs_api_key',
          'elevenlabs_api_key is not an ElevenLabs API key: expected 20-128 letters, digits, - or _',
        );
      }
      return ELEVENLABS_AGENT_ID.test(credentials.agentId)
        ? VALID
        : rejected('elevenlabs_agent_id', 'elevenlabs_agent_id must be 3-128 letters, digits, - or _');
    case 'custom':
      return checkCustomEndpoint(credentials.endpoint);
  }
}

export function checkCustomEndpoint(endpoint: string): ValidationResult {
  const problem = customEndpointProblem(endpoint);
  return problem === null ? VALID : rejected('custom_endpoint', `custom_endpoint ${problem}`);
}

function customEndpointProblem(endpoint: string): string | null {
  if (endpoint.length > MAX_ENDPOINT_LENGTH) return `must be at most ${MAX_ENDPOINT_LENGTH} characters`;
  // The URL parser would quietly strip surrounding blanks and accept `wss:host` or `wss:///host`;
  // the contract asks for the absolute form as written.
  // eslint-disable-next-line no-control-regex -- control characters are exactly what this refuses
  if (!/^wss:\/\/[^/\\]/i.test(endpoint) || /[\s\u0000-\u001f\u007f]/.test(endpoint))
    return 'must be an absolute wss:// URL';
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return 'must be an absolute wss:// URL';
  }
  if (url.hostname === '') return 'must name a host';
  if (url.username !== '' || url.password !== '') return 'must not carry credentials (user:password@)';
  // RFC 6455 §3: fragment identifiers are meaningless in WebSocket URIs and must not be used.
  if (endpoint.includes('#')) return 'must not contain a fragment (#)';
  return null;
}

/** PROVIDER_VALIDATION=format: shapes only, no network; the embedded/offline default. */
export class FormatProviderValidator implements ProviderValidator {
  readonly mode = 'format' as const;

  async validate(credentials: ProviderCredentials): Promise<ValidationResult> {
    return checkCredentialFormat(credentials);
  }
}
