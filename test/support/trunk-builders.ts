import { EncryptedSecret } from '../../src/shared/encrypted-secret';
import { TrunkCommand } from '../../src/trunks/domain/trunk.decider';
import {
  SipPasswordRotated,
  TrunkCreated,
  TrunkDeleted,
  TrunkEvent,
  TrunkUpdated,
} from '../../src/trunks/domain/trunk.events';

export const AT = new Date('2026-11-21T10:00:00.000Z');
export const LATER = new Date('2026-11-21T11:00:00.000Z');

export const secret = (tag: string): EncryptedSecret => ({
  v: 1,
  alg: 'A256GCM',
  iv: `iv-${tag}`,
  ct: `ct-${tag}`,
  tag: `tag-${tag}`,
});

type CreateData = Extract<TrunkCommand, { type: 'CreateTrunk' }>['data'];

export function createTrunk(overrides: Partial<CreateData> = {}): TrunkCommand {
  return {
    type: 'CreateTrunk',
    data: {
      trunkId: 'conn_1',
      accountId: 'acct_1',
      name: 'Main line',
      provider: 'openai',
      sipUsername: 'main-line',
      sipPassword: secret('pw'),
      wiring: { openai_api_key: secret('oa') },
      settings: {},
      at: AT,
      ...overrides,
    },
  };
}

export function trunkCreated(overrides: Partial<TrunkCreated['data']> = {}): TrunkCreated {
  return {
    type: 'TrunkCreated',
    data: {
      trunk_id: 'conn_1',
      account_id: 'acct_1',
      name: 'Main line',
      ai_provider: 'openai',
      sip_username: 'main-line',
      sip_password: secret('pw'),
      wiring: { openai_api_key: secret('oa') },
      settings: { system_prompt: null, vad: null, provider_settings: null, allowed_addresses: null },
      created_at: AT.toISOString(),
      ...overrides,
    },
  };
}

export function trunkUpdated(
  changes: TrunkUpdated['data']['changes'],
  extra: Partial<TrunkUpdated['data']> = {},
): TrunkUpdated {
  return {
    type: 'TrunkUpdated',
    data: { trunk_id: 'conn_1', account_id: 'acct_1', changes, updated_at: LATER.toISOString(), ...extra },
  };
}

export const trunkDeleted = (overrides: Partial<TrunkDeleted['data']> = {}): TrunkDeleted => ({
  type: 'TrunkDeleted',
  data: {
    trunk_id: 'conn_1',
    account_id: 'acct_1',
    sip_username: 'main-line',
    name: 'Main line',
    deleted_at: LATER.toISOString(),
    ...overrides,
  },
});

export const sipPasswordRotated = (overrides: Partial<SipPasswordRotated['data']> = {}): SipPasswordRotated => ({
  type: 'SipPasswordRotated',
  data: {
    trunk_id: 'conn_1',
    account_id: 'acct_1',
    sip_username: 'main-line',
    sip_password: secret('pw2'),
    rotated_at: LATER.toISOString(),
    ...overrides,
  },
});

export const deactivated = (): TrunkEvent => trunkUpdated({ status: 'inactive' });
