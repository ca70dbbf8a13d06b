import { Decider } from '../../shared/decider';
import { DomainError, invalidField } from '../../shared/domain-error';
import { EncryptedSecret } from '../../shared/encrypted-secret';
import { TrunkEvent, TrunkUpdated } from './trunk.events';
import {
  ALL_PROVIDER_FIELDS,
  FIELDS_OF_PROVIDER,
  Provider,
  ProviderWiring,
  TrunkSettings,
  TrunkStatus,
} from './trunk.types';

export type TrunkChanges = TrunkUpdated['data']['changes'];

export type TrunkCommand =
  | {
      type: 'CreateTrunk';
      data: {
        trunkId: string;
        accountId: string;
        name: string;
        provider: Provider;
        sipUsername: string;
        sipPassword: EncryptedSecret;
        wiring: ProviderWiring;
        settings: Partial<TrunkSettings>;
        at: Date;
      };
    }
  | { type: 'UpdateTrunk'; data: { accountId: string; changes: TrunkChanges; at: Date } }
  | { type: 'RotateSipPassword'; data: { accountId: string; sipPassword: EncryptedSecret; at: Date } }
  | { type: 'DeleteTrunk'; data: { accountId: string; at: Date } }
  /**
   * What the trunk health monitor saw in the stored calls. Never refused: a verdict that changes
   * nothing (the trunk is inactive, already in that state, deleted) records nothing.
   */
  | {
      type: 'ReportTrunkHealth';
      data: { accountId: string; healthy: boolean; reason: string; callIds: string[]; at: Date };
    };

export interface LiveTrunk {
  status: TrunkStatus;
  trunkId: string;
  accountId: string;
  name: string;
  provider: Provider;
  sipUsername: string;
  wiring: ProviderWiring;
  settings: TrunkSettings;
  createdAt: string;
  updatedAt: string;
}

export type TrunkState = { status: 'none' } | (Omit<LiveTrunk, 'status'> & { status: 'deleted' }) | LiveTrunk;

const EMPTY_SETTINGS: TrunkSettings = {
  system_prompt: null,
  vad: null,
  provider_settings: null,
  allowed_addresses: null,
};

export const trunkDecider: Decider<TrunkCommand, TrunkEvent, TrunkState> = {
  initialState: () => ({ status: 'none' }),

  decide(command, state) {
    switch (command.type) {
      case 'CreateTrunk': {
        if (state.status !== 'none') throw new DomainError('conflict', `Trunk ${command.data.trunkId} already exists`);
        const d = command.data;
        checkWiring(d.provider, d.wiring, true);
        return [
          {
            type: 'TrunkCreated',
            data: {
              trunk_id: d.trunkId,
              account_id: d.accountId,
              name: d.name,
              ai_provider: d.provider,
              sip_username: d.sipUsername,
              sip_password: d.sipPassword,
              wiring: d.wiring,
              settings: { ...EMPTY_SETTINGS, ...definedOnly(d.settings) },
              created_at: d.at.toISOString(),
            },
          },
        ];
      }
      case 'UpdateTrunk': {
        const trunk = live(state, command.data.accountId);
        if (command.data.changes.wiring) checkWiring(trunk.provider, command.data.changes.wiring, false);
        const changes = effectiveChanges(trunk, command.data.changes);
        if (Object.keys(changes).length === 0) return [];
        const renamed = changes.name !== undefined ? { previous_name: trunk.name } : {};
        return [
          {
            type: 'TrunkUpdated',
            data: {
              trunk_id: trunk.trunkId,
              account_id: trunk.accountId,
              changes,
              ...renamed,
              updated_at: command.data.at.toISOString(),
            },
          },
        ];
      }
      case 'RotateSipPassword': {
        const trunk = live(state, command.data.accountId);
        return [
          {
            type: 'SipPasswordRotated',
            data: {
              trunk_id: trunk.trunkId,
              account_id: trunk.accountId,
              sip_username: trunk.sipUsername,
              sip_password: command.data.sipPassword,
              rotated_at: command.data.at.toISOString(),
            },
          },
        ];
      }
      case 'ReportTrunkHealth':
        return healthChange(state, command.data);
      case 'DeleteTrunk': {
        const trunk = live(state, command.data.accountId);
        return [
          {
            type: 'TrunkDeleted',
            data: {
              trunk_id: trunk.trunkId,
              account_id: trunk.accountId,
              sip_username: trunk.sipUsername,
              name: trunk.name,
              deleted_at: command.data.at.toISOString(),
            },
          },
        ];
      }
    }
  },

  evolve(state, event) {
    switch (event.type) {
      case 'TrunkCreated': {
        const d = event.data;
        return {
          status: 'active',
          trunkId: d.trunk_id,
          accountId: d.account_id,
          name: d.name,
          provider: d.ai_provider,
          sipUsername: d.sip_username,
          wiring: d.wiring,
          settings: d.settings,
          createdAt: d.created_at,
          updatedAt: d.created_at,
        };
      }
      case 'TrunkUpdated': {
        if (state.status === 'none') return state;
        const { name, status, wiring, ...settings } = event.data.changes;
        return {
          ...state,
          ...(name !== undefined ? { name } : {}),
          ...(status !== undefined && state.status !== 'deleted' ? { status } : {}),
          wiring: { ...state.wiring, ...wiring },
          settings: { ...state.settings, ...settings },
          updatedAt: event.data.updated_at,
        };
      }
      case 'SipPasswordRotated':
        return state.status === 'none' ? state : { ...state, updatedAt: event.data.rotated_at };
      case 'TrunkDeleted':
        return state.status === 'none' ? state : { ...state, status: 'deleted', updatedAt: event.data.deleted_at };
      case 'TrunkHealthChanged':
        return state.status === 'none' || state.status === 'deleted'
          ? state
          : { ...state, status: event.data.status, updatedAt: event.data.changed_at };
    }
  },
};

/**
 * Only the monitor's verdicts move a trunk between active and error: failing calls turn an
 * `active` trunk to `error`, a healthy one turns an `error` trunk back. An `inactive` trunk stays
 * as its operator set it.
 */
function healthChange(
  state: TrunkState,
  d: Extract<TrunkCommand, { type: 'ReportTrunkHealth' }>['data'],
): TrunkEvent[] {
  if (state.status === 'none' || state.status === 'deleted' || state.accountId !== d.accountId) return [];
  const to = d.healthy ? 'active' : 'error';
  if (state.status !== (d.healthy ? 'error' : 'active')) return [];
  return [
    {
      type: 'TrunkHealthChanged',
      data: {
        trunk_id: state.trunkId,
        account_id: state.accountId,
        status: to,
        reason: d.reason,
        call_ids: d.callIds,
        changed_at: d.at.toISOString(),
      },
    },
  ];
}

/** A deleted trunk, or another account's, does not exist for the caller. */
function live(state: TrunkState, accountId: string): LiveTrunk {
  if (state.status === 'none' || state.status === 'deleted' || state.accountId !== accountId)
    throw new DomainError('not_found', 'Trunk not found');
  return state;
}

/** Required fields of the provider present (on create); no field of another provider. */
export function checkWiring(provider: Provider, wiring: ProviderWiring, creating: boolean): void {
  const own = FIELDS_OF_PROVIDER[provider];
  for (const field of ALL_PROVIDER_FIELDS) {
    if (wiring[field] !== undefined && !own.includes(field))
      throw invalidField(field, `${field} does not apply to a ${provider} trunk`, 'not_applicable');
  }
  if (!creating) return;
  for (const field of own) {
    if (wiring[field] === undefined)
      throw invalidField(field, `${field} is required when ai_provider is ${provider}`, 'missing');
  }
}

/** Drops fields equal to the current values, so a no-op PATCH records nothing. */
function effectiveChanges(trunk: LiveTrunk, requested: TrunkChanges): TrunkChanges {
  const changes: TrunkChanges = {};
  if (requested.name !== undefined && requested.name !== trunk.name) changes.name = requested.name;
  if (requested.status !== undefined && requested.status !== trunk.status) changes.status = requested.status;
  for (const key of ['system_prompt', 'vad', 'provider_settings', 'allowed_addresses'] as const) {
    if (requested[key] !== undefined && JSON.stringify(requested[key]) !== JSON.stringify(trunk.settings[key])) {
      (changes as Record<string, unknown>)[key] = requested[key];
    }
  }
  const wiring = Object.fromEntries(
    Object.entries(requested.wiring ?? {}).filter(
      ([k, v]) => JSON.stringify(v) !== JSON.stringify(trunk.wiring[k as keyof ProviderWiring]),
    ),
  );
  if (Object.keys(wiring).length > 0) changes.wiring = wiring;
  return changes;
}

function definedOnly<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}

export const trunkStream = (trunkId: string): string => `trunk-${trunkId}`;
