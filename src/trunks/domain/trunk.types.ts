import { EncryptedSecret } from '../../shared/encrypted-secret';

export const PROVIDERS = ['openai', 'elevenlabs', 'custom'] as const;
export type Provider = (typeof PROVIDERS)[number];
export const TRUNK_STATUSES = ['active', 'inactive', 'error'] as const;
export type TrunkStatus = (typeof TRUNK_STATUSES)[number];

export interface Vad {
  threshold?: number;
  prefix_padding_ms?: number;
  silence_duration_ms?: number;
}

export interface ProviderSettings {
  model?: string;
  voice?: string;
}

/** Settings any trunk may carry; null clears one. */
export interface TrunkSettings {
  system_prompt: string | null;
  vad: Vad | null;
  provider_settings: ProviderSettings | null;
  allowed_addresses: string[] | null;
}

/** Provider wiring: each field belongs to one provider. Secrets are ciphertext. */
export interface ProviderWiring {
  openai_api_key?: EncryptedSecret;
  elevenlabs_api_key?: EncryptedSecret;
  elevenlabs_agent_id?: string;
  custom_endpoint?: string;
}

export const FIELDS_OF_PROVIDER: Record<Provider, (keyof ProviderWiring)[]> = {
  openai: ['openai_api_key'],
  elevenlabs: ['elevenlabs_api_key', 'elevenlabs_agent_id'],
  custom: ['custom_endpoint'],
};

export const ALL_PROVIDER_FIELDS: (keyof ProviderWiring)[] = [
  'openai_api_key',
  'elevenlabs_api_key',
  'elevenlabs_agent_id',
  'custom_endpoint',
];
