import {
  arrayOf,
  isNumber,
  isString,
  jsonCodec,
  nullable,
  objectOf,
  oneOf,
  optional,
} from '../../infrastructure/read-model/read-model.codec';
import { Provider, PROVIDERS, ProviderSettings, TRUNK_STATUSES, TrunkStatus, Vad } from '../domain/trunk.types';

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

const vad = objectOf<Vad>({
  threshold: optional(isNumber),
  prefix_padding_ms: optional(isNumber),
  silence_duration_ms: optional(isNumber),
});
const providerSettings = objectOf<ProviderSettings>({ model: optional(isString), voice: optional(isString) });

/** What a trunk view and a gateway record both carry from the trunk's settings. */
const settings = {
  ai_provider: oneOf(PROVIDERS),
  system_prompt: nullable(isString),
  provider_settings: nullable(providerSettings),
  allowed_addresses: nullable(arrayOf(isString)),
  elevenlabs_agent_id: nullable(isString),
  custom_endpoint: nullable(isString),
};

export const trunkViewCodec = jsonCodec(
  'trunk view',
  objectOf<TrunkView>({
    ...settings,
    id: isString,
    account_id: isString,
    name: isString,
    status: oneOf(TRUNK_STATUSES),
    sip_username: isString,
    created_at: isString,
    updated_at: isString,
    vad: nullable(vad),
    password_rotated_at: nullable(isString),
  }),
);

export const gatewayRecordCodec = jsonCodec(
  'gateway record',
  objectOf<GatewayRecord>({
    ...settings,
    trunk_id: isString,
    account_id: isString,
    sip_username: isString,
    status: oneOf([...TRUNK_STATUSES, 'deleted']),
    ha1: nullable(isString),
  }),
);

export const trunkKeys = {
  trunk: (id: string) => `trunk:${id}`,
  trunkPrefix: 'trunk:',
  byAccount: (accountId: string) => `trunks:${accountId}`,
  byAccountAndStatus: (accountId: string, status: string) => `trunks:${accountId}:status:${status}`,
  gateway: (sipUsername: string) => `gateway:${sipUsername.toLowerCase()}`,
  /** The change feed: lower-case user names scored by the Unix ms of their record's last change. */
  gatewayChanges: 'gateway-changes',
  /** Per user name, its last change (a GatewayChange), stored where the feed's page() reads it. */
  gatewayChangePrefix: 'gateway-change:',
};

/** When a gateway record last changed: what a gateway polls to evict what it cached. */
export interface GatewayChange {
  sip_username: string;
  /** Whose trunk: an account's own gateway key sees only its account's changes. */
  account_id: string;
  changed_at: string;
}

export const gatewayChangeCodec = jsonCodec(
  'gateway change',
  objectOf<GatewayChange>({ sip_username: isString, account_id: isString, changed_at: isString }),
);
