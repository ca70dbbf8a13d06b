import { getStatus, joinUrl, unexpectedAnswer } from './provider-http';
import { rejected, unreachable, VALID, type ValidationResult } from './provider-validator.port';

export interface ElevenLabsValidatorOptions {
  /** e.g. https://api.elevenlabs.io/v1 (config ELEVENLABS_API_BASE). */
  apiBase: string;
  /** Budget for both requests together, so the caller's wait stays bounded by one number. */
  timeoutMs: number;
}

const PROVIDER = 'ElevenLabs';

/** Key check (`GET /user`), then agent check (`GET /convai/agents/{id}`), key in `xi-api-key`. */
export class ElevenLabsValidator {
  private readonly userUrl: URL;

  constructor(private readonly options: ElevenLabsValidatorOptions) {
    this.userUrl = joinUrl(options.apiBase, '/user');
  }

  async validate(apiKey: string, agentId: string): Promise<ValidationResult> {
    const { timeoutMs } = this.options;
    const signal = AbortSignal.timeout(timeoutMs);
    const headers = { 'xi-api-key': apiKey };
    const user = await getStatus(PROVIDER, this.userUrl, headers, signal, timeoutMs);
    if ('failed' in user) return user.failed;
    const keyResult = classifyKeyStatus(user.status);
    if (!keyResult.ok) return keyResult;
    const agentUrl = joinUrl(this.options.apiBase, `/convai/agents/${encodeURIComponent(agentId)}`);
    const agent = await getStatus(PROVIDER, agentUrl, headers, signal, timeoutMs);
    return 'failed' in agent ? agent.failed : classifyAgentStatus(agent.status);
  }
}

function classifyKeyStatus(status: number): ValidationResult {
  if (status >= 200 && status < 300) return VALID;
  // Rate limits apply after authentication: the key is known; go on to the agent check.
  if (status === 429) return VALID;
  if (status >= 400 && status < 500)
    return rejected(
      'elevenlabs_api_key',
      `ElevenLabs rejected the API key${status === 401 ? '' : ` (HTTP ${status})`}`,
    );
  return unexpectedAnswer(PROVIDER, status);
}

function classifyAgentStatus(status: number): ValidationResult {
  if (status >= 200 && status < 300) return VALID;
  if (status === 401 || status === 403)
    return rejected('elevenlabs_api_key', 'ElevenLabs does not let this API key read the agent');
  if (status === 404) return rejected('elevenlabs_agent_id', 'ElevenLabs has no agent with this id for this API key');
  // Unlike the key check, a 429 here proves nothing about the agent: ask the client to retry.
  if (status === 429) return unreachable('ElevenLabs rate-limited the agent check; retry later');
  if (status >= 400 && status < 500)
    return rejected('elevenlabs_agent_id', `ElevenLabs refused the agent id (HTTP ${status})`);
  return unexpectedAnswer(PROVIDER, status);
}
