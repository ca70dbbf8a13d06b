/**
 * Checks the AI-provider settings of a trunk before they are stored. `rejected` is the provider
 * (or the format check) saying no: the caller answers 401 invalid_provider_credentials naming
 * `field`. `unreachable` is a timeout, a network failure or a provider error: the caller answers
 * 503 provider_unavailable, which the client may retry. No message ever contains a submitted key.
 * Adapters run test/contract/provider-validator.contract.ts.
 */
export type ProviderCredentials =
  /** `model`: the trunk's provider_settings.model (the media gateway's default when absent). */
  | { provider: 'openai'; apiKey: string; model?: string }
  | { provider: 'elevenlabs'; apiKey: string; agentId: string }
  | { provider: 'custom'; endpoint: string };

/** Request fields a rejection can name (the create/PATCH body's field names). */
export type ProviderField =
  'openai_api_key' | 'elevenlabs_api_key' | 'elevenlabs_agent_id' | 'custom_endpoint' | 'provider_settings';

export type ValidationResult =
  | { ok: true }
  | { ok: false; reason: 'rejected'; field: ProviderField; message: string }
  | { ok: false; reason: 'unreachable'; message: string };

export interface ProviderValidator {
  validate(credentials: ProviderCredentials): Promise<ValidationResult>;
  readonly mode: 'live' | 'format';
}

export const PROVIDER_VALIDATOR = Symbol('ProviderValidator');

export const VALID: ValidationResult = Object.freeze({ ok: true });

export function rejected(field: ProviderField, message: string): ValidationResult {
  return { ok: false, reason: 'rejected', field, message };
}

export function unreachable(message: string): ValidationResult {
  return { ok: false, reason: 'unreachable', message };
}
