import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { ReadAheadResult, readString } from '../../infrastructure/read-model/read-ahead';
import { READ_MODEL_STORE, ReadModelStore } from '../../infrastructure/read-model/read-model-store.port';
import { GatewayRecord, gatewayRecordCodec, trunkKeys } from '../../projections/trunks/trunk-view';
import { DomainError } from '../../shared/domain-error';

export class LookupGatewayTrunk {
  constructor(
    readonly accountId: string,
    readonly sipUsername: string,
    readonly readAhead?: ReadAheadResult,
  ) {}
}

/**
 * The SIP gateway's per-call lookup: one GET from the read model, scoped to the key's account,
 * normally read ahead by the request gate in its own round trip (read-ahead.routes.ts).
 */
@QueryHandler(LookupGatewayTrunk)
export class LookupGatewayTrunkHandler implements IQueryHandler<LookupGatewayTrunk, GatewayRecord> {
  constructor(@Inject(READ_MODEL_STORE) private readonly store: ReadModelStore) {}

  async execute({ accountId, sipUsername, readAhead }: LookupGatewayTrunk): Promise<GatewayRecord> {
    const raw = /^[A-Za-z0-9-]{1,64}$/.test(sipUsername)
      ? await readString(this.store, trunkKeys.gateway(sipUsername), readAhead)
      : null;
    const record = gatewayRecordCodec.decode(raw);
    if (!record || record.account_id !== accountId)
      throw new DomainError('not_found', `No trunk with sip_username ${sipUsername}`);
    return record;
  }
}
