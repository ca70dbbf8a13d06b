import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { ReadAheadResult, readString } from '../../infrastructure/read-model/read-ahead';
import { READ_MODEL_STORE, ReadModelStore } from '../../infrastructure/read-model/read-model-store.port';
import { GatewayRecord, gatewayRecordCodec, trunkKeys } from '../projections/trunk-view';
import { DomainError } from '../../shared/domain-error';
import { READ_SETTINGS, ReadSettings } from './read.settings';
import { allowedCidrsOf, sipTargetOf } from './gateway-target';

/** The lookup as served: the projected record plus what is derived from configuration. */
export interface GatewayTrunk extends GatewayRecord {
  sip_target: string | null;
  allowed_cidrs: string[] | null;
}

export class LookupGatewayTrunk {
  /** `accountId` null: a gateway key, which may look up a trunk of any account. */
  constructor(
    readonly accountId: string | null,
    readonly sipUsername: string,
    readonly readAhead?: ReadAheadResult,
  ) {}
}

export const SIP_USERNAME_LOOKUP = /^[A-Za-z0-9-]{1,64}$/;

/**
 * The SIP gateway's per-call lookup: one GET from the read model, scoped to the key's account
 * (any account for a gateway key), normally read ahead by the request gate in its own round trip
 * (read-ahead.routes.ts).
 */
@QueryHandler(LookupGatewayTrunk)
export class LookupGatewayTrunkHandler implements IQueryHandler<LookupGatewayTrunk, GatewayTrunk> {
  constructor(
    @Inject(READ_MODEL_STORE) private readonly store: ReadModelStore,
    @Inject(READ_SETTINGS) private readonly settings: ReadSettings,
  ) {}

  async execute({ accountId, sipUsername, readAhead }: LookupGatewayTrunk): Promise<GatewayTrunk> {
    const raw = SIP_USERNAME_LOOKUP.test(sipUsername)
      ? await readString(this.store, trunkKeys.gateway(sipUsername), readAhead)
      : null;
    const trunk = gatewayTrunkOf(raw, accountId, this.settings);
    if (!trunk) throw new DomainError('not_found', 'No trunk with this sip_username');
    return trunk;
  }
}

/** The lookup as served from the gateway record; null when missing or outside `accountId` (null: any). */
export function gatewayTrunkOf(
  raw: string | null,
  accountId: string | null,
  settings: ReadSettings,
): GatewayTrunk | null {
  return gatewayTrunkInScope(gatewayTrunkFrom(raw, settings), accountId);
}

/** The record decoded and the lookup's answer built, for any account (null when missing). */
export function gatewayTrunkFrom(raw: string | null, settings: ReadSettings): GatewayTrunk | null {
  const record = gatewayRecordCodec.decode(raw);
  if (!record) return null;
  return {
    ...record,
    sip_target: sipTargetOf(record, settings.sipRoutes),
    allowed_cidrs: allowedCidrsOf(record.allowed_addresses),
  };
}

/** The trunk when `accountId` may look it up (null: any account); null otherwise. */
export function gatewayTrunkInScope(trunk: GatewayTrunk | null, accountId: string | null): GatewayTrunk | null {
  return trunk && (accountId === null || trunk.account_id === accountId) ? trunk : null;
}
