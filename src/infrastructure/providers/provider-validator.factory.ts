import { CustomEndpointValidator } from './custom-endpoint.validator';
import { ElevenLabsValidator } from './elevenlabs.validator';
import { FormatProviderValidator } from './format.provider-validator';
import { LiveProviderValidator } from './live.provider-validator';
import { OpenAiValidator } from './openai.validator';
import type { ProviderValidator } from './provider-validator.port';

export interface ProviderValidatorOptions {
  mode: 'live' | 'format';
  openaiApiBase: string;
  elevenlabsApiBase: string;
  /** Per validation, all of its requests together. Default 5000. */
  timeoutMs?: number;
  /** Live mode only: WebSocket handshake with custom endpoints. Default off. */
  probeCustomEndpoints?: boolean;
  /** A CA (PEM) the probe trusts besides the public roots. */
  ca?: string;
}

export const DEFAULT_PROVIDER_TIMEOUT_MS = 5000;

/** Format mode never touches the network, not even for the endpoint probe. */
export function createProviderValidator(options: ProviderValidatorOptions): ProviderValidator {
  if (options.mode === 'format') return new FormatProviderValidator();
  const timeoutMs = options.timeoutMs ?? DEFAULT_PROVIDER_TIMEOUT_MS;
  if (!Number.isInteger(timeoutMs) || timeoutMs <= 0)
    throw new RangeError('provider validation timeout must be a positive whole number of ms');
  return new LiveProviderValidator(
    new OpenAiValidator({ apiBase: options.openaiApiBase, timeoutMs }),
    new ElevenLabsValidator({ apiBase: options.elevenlabsApiBase, timeoutMs }),
    new CustomEndpointValidator({ probe: options.probeCustomEndpoints ?? false, timeoutMs, ca: options.ca }),
  );
}
