import { EncryptedSecret } from '../../shared/encrypted-secret';
import { eventGuard } from '../../shared/event-guard';
import { Provider, ProviderWiring, TrunkSettings } from './trunk.types';

export type TrunkCreated = {
  type: 'TrunkCreated';
  data: {
    trunk_id: string;
    account_id: string;
    name: string;
    ai_provider: Provider;
    sip_username: string;
    sip_password: EncryptedSecret;
    wiring: ProviderWiring;
    settings: TrunkSettings;
    created_at: string;
  };
};

/** Only the fields that changed. */
export type TrunkUpdated = {
  type: 'TrunkUpdated';
  data: {
    trunk_id: string;
    account_id: string;
    changes: Partial<{ name: string; status: 'active' | 'inactive' } & TrunkSettings> & { wiring?: ProviderWiring };
    /** The name before a rename, so projections and reservations can release it. */
    previous_name?: string;
    updated_at: string;
  };
};

export type SipPasswordRotated = {
  type: 'SipPasswordRotated';
  data: {
    trunk_id: string;
    account_id: string;
    sip_username: string;
    sip_password: EncryptedSecret;
    rotated_at: string;
  };
};

export type TrunkDeleted = {
  type: 'TrunkDeleted';
  data: { trunk_id: string; account_id: string; sip_username: string; name: string; deleted_at: string };
};

/**
 * The trunk's health as its calls show it (docs/analytics.md, "Trunk health"): `error` after
 * consecutive calls failed for the agent or routing, `active` again once a call is answered.
 */
export type TrunkHealthChanged = {
  type: 'TrunkHealthChanged';
  data: {
    trunk_id: string;
    account_id: string;
    status: 'error' | 'active';
    /** Why, in words: the failures seen, or the answered call. */
    reason: string;
    /** The calls that showed it, oldest first. */
    call_ids: string[];
    changed_at: string;
  };
};

export type TrunkEvent = TrunkCreated | TrunkUpdated | SipPasswordRotated | TrunkDeleted | TrunkHealthChanged;

export const isTrunkEvent = eventGuard<TrunkEvent>({
  TrunkCreated: true,
  TrunkUpdated: true,
  SipPasswordRotated: true,
  TrunkDeleted: true,
  TrunkHealthChanged: true,
});
