import { getStatus, joinUrl, unexpectedAnswer } from './provider-http';
import { rejected, VALID, type ValidationResult } from './provider-validator.port';

export interface OpenAiValidatorOptions {
  /** e.g. https://api.openai.com/v1 (config OPENAI_API_BASE). */
  apiBase: string;
  timeoutMs: number;
}

/**
 * The Realtime model the media gateway asks for when a trunk names none (media-gateway/src/agent/
 * openai-realtime.agent.ts, OPENAI_DEFAULT_MODEL; test/unit/providers/provider-endpoints.spec.ts
 * keeps the two equal).
 */
export const OPENAI_DEFAULT_REALTIME_MODEL = 'gpt-realtime';

/**
 * Asks OpenAI whether a key may use the model the media gateway will open a Realtime session with:
 * `GET {base}/models/{model}` (Retrieve model), the key as a Bearer token, on the same host and API
 * version as the gateway's `wss://…/v1/realtime?model=` (docs/media-gateway.md, "Keys checked where
 * they are entered"). 401/403: the key; 404: the model (no such model, or not for this key).
 */
export class OpenAiValidator {
  constructor(private readonly options: OpenAiValidatorOptions) {
    // A base that is not a URL is refused here, at start, not at the first trunk.
    joinUrl(options.apiBase, '/models');
  }

  async validate(apiKey: string, model: string = OPENAI_DEFAULT_REALTIME_MODEL): Promise<ValidationResult> {
    const { timeoutMs } = this.options;
    const answer = await getStatus(
      'OpenAI',
      joinUrl(this.options.apiBase, `/models/${encodeURIComponent(model)}`),
      { authorization: `Bearer ${apiKey}` },
      AbortSignal.timeout(timeoutMs),
      timeoutMs,
    );
    if ('failed' in answer) return answer.failed;
    if (answer.status === 404)
      return rejected('provider_settings', 'OpenAI has no such model for this API key (provider_settings.model)');
    return classifyOpenAiStatus(answer.status);
  }
}

export function classifyOpenAiStatus(status: number): ValidationResult {
  if (status >= 200 && status < 300) return VALID;
  // OpenAI authenticates before it applies rate limits and quotas (both are per organization),
  // so a 429 means the key was recognised. Answering 503 here would refuse trunks exactly when
  // the customer's account is busy.
  if (status === 429) return VALID;
  if (status === 401 || status === 403) return rejected('openai_api_key', 'OpenAI rejected the API key');
  if (status >= 400 && status < 500) return rejected('openai_api_key', `OpenAI refused the API key (HTTP ${status})`);
  return unexpectedAnswer('OpenAI', status);
}
