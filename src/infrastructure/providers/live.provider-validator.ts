import type { CustomEndpointValidator } from './custom-endpoint.validator';
import type { ElevenLabsValidator } from './elevenlabs.validator';
import { checkCredentialFormat } from './format.provider-validator';
import type { OpenAiValidator } from './openai.validator';
import type { ProviderCredentials, ProviderValidator, ValidationResult } from './provider-validator.port';

/**
 * PROVIDER_VALIDATION=live: asks the provider. The format check runs first, so a malformed key is
 * refused without a request, and nothing that could break an HTTP header ever reaches one.
 */
export class LiveProviderValidator implements ProviderValidator {
  readonly mode = 'live' as const;

  constructor(
    private readonly openai: OpenAiValidator,
    private readonly elevenlabs: ElevenLabsValidator,
    private readonly custom: CustomEndpointValidator,
  ) {}

  async validate(credentials: ProviderCredentials): Promise<ValidationResult> {
    switch (credentials.provider) {
      case 'openai': {
        const format = checkCredentialFormat(credentials);
        return format.ok ? this.openai.validate(credentials.apiKey, credentials.model) : format;
      }
      case 'elevenlabs': {
        const format = checkCredentialFormat(credentials);
        return format.ok ? this.elevenlabs.validate(credentials.apiKey, credentials.agentId) : format;
      }
      case 'custom':
        // Runs the same format check itself, then the optional handshake probe.
        return this.custom.validate(credentials.endpoint);
    }
  }
}
