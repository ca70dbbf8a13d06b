import { getStatus, joinUrl, unexpectedAnswer } from './provider-http';
import { rejected, VALID, type ValidationResult } from './provider-validator.port';

export interface OpenAiValidatorOptions {
  /** e.g. https://api.openai.com/v1 (config OPENAI_API_BASE). */
  apiBase: string;
  timeoutMs: number;
}

/** Asks OpenAI whether it knows a key: `GET {base}/models` with the key as a Bearer token. */
export class OpenAiValidator {
  private readonly modelsUrl: URL;

  constructor(private readonly options: OpenAiValidatorOptions) {
    this.modelsUrl = joinUrl(options.apiBase, '/models');
  }

  async validate(apiKey: string): Promise<ValidationResult> {
    const { timeoutMs } = this.options;
    const answer = await getStatus(
      'OpenAI',
      this.modelsUrl,
      { authorization: `Bearer ${apiKey}` },
      AbortSignal.timeout(timeoutMs),
      timeoutMs,
    );
    return 'failed' in answer ? answer.failed : classifyOpenAiStatus(answer.status);
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
