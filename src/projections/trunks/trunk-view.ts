import type { Provider, ProviderSettings, TrunkStatus, Vad } from '../../write/trunks/domain/trunk.types';

/** The trunk as the read side serves it: no secret, not even encrypted. */
export interface TrunkView {
  id: string;
  account_id: string;
  name: string;
  status: TrunkStatus;
  ai_provider: Provider;
  sip_username: string;
  created_at: string;
  updated_at: string;
  system_prompt: string | null;
  vad: Vad | null;
  provider_settings: ProviderSettings | null;
  allowed_addresses: string[] | null;
  elevenlabs_agent_id: string | null;
  custom_endpoint: string | null;
  password_rotated_at: string | null;
}

/** What the SIP gateway needs per call, keyed by sip_username. */
export interface GatewayRecord {
  trunk_id: string;
  account_id: string;
  sip_username: string;
  status: TrunkStatus | 'deleted';
  ai_provider: Provider;
  provider_settings: ProviderSettings | null;
  system_prompt: string | null;
  allowed_addresses: string[] | null;
  elevenlabs_agent_id: string | null;
  custom_endpoint: string | null;
  /** MD5(username:SIP_DOMAIN:password), what a SIP registrar checks digests against; null once unrecoverable. */
  ha1: string | null;
}

export const trunkKeys = {
  trunk: (id: string) => `trunk:${id}`,
  trunkPrefix: 'trunk:',
  byAccount: (accountId: string) => `trunks:${accountId}`,
  byAccountAndStatus: (accountId: string, status: string) => `trunks:${accountId}:status:${status}`,
  gateway: (sipUsername: string) => `gateway:${sipUsername.toLowerCase()}`,
};
