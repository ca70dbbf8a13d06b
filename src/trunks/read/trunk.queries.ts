import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { ReadAheadResult, readString } from '../../infrastructure/read-model/read-ahead';
import { READ_MODEL_STORE, ReadModelStore } from '../../infrastructure/read-model/read-model-store.port';
import { READ_SETTINGS, ReadSettings } from './read.settings';
import { TrunkView, trunkKeys, trunkViewCodec } from '../projections/trunk-view';
import { CLOCK, Clock } from '../../shared/clock';
import { DomainError } from '../../shared/domain-error';
import { byCreation, readCursorPage } from '../../platform/http/cursor';
import { TrunkStatus } from '../domain/trunk.types';
import { NO_CALLS, TRUNK_STATS_READER, TrunkStatsReader } from './trunk-stats.port';
import { TrunkDetailDto, TrunkListDto, TrunkListItemDto } from './trunk.dto';

export class ListTrunks {
  constructor(
    readonly accountId: string,
    readonly limit: number,
    readonly offset: number,
    readonly status: TrunkStatus | undefined,
    readonly order: 'asc' | 'desc',
    readonly cursor?: string,
  ) {}
}

export class GetTrunk {
  constructor(
    readonly accountId: string,
    readonly trunkId: string,
    readonly readAhead?: ReadAheadResult,
  ) {}
}

/**
 * One round trip for the page (index + values), one query for the stats of the page. A cursor
 * page starts just after the last trunk shown, by (created_at, id), the index's own order: a
 * rank lookup in the sorted set, so it costs the same at any depth, and a trunk created during
 * a walk cannot shift it (as it shifts an offset).
 */
@QueryHandler(ListTrunks)
export class ListTrunksHandler implements IQueryHandler<ListTrunks, TrunkListDto> {
  constructor(
    @Inject(READ_MODEL_STORE) private readonly store: ReadModelStore,
    @Inject(TRUNK_STATS_READER) private readonly stats: TrunkStatsReader,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ accountId, limit, offset, status, order, cursor }: ListTrunks): Promise<TrunkListDto> {
    const index = status ? trunkKeys.byAccountAndStatus(accountId, status) : trunkKeys.byAccount(accountId);
    const { views, pagination } = await readCursorPage(
      this.store,
      { index, valuePrefix: trunkKeys.trunkPrefix, filters: [status] },
      { limit, offset, cursor, order },
      trunkViewCodec.decodeAll,
      byCreation,
    );
    const stats =
      views.length > 0
        ? await this.stats.statsFor(
            accountId,
            views.map((v) => v.id),
            this.clock.now(),
          )
        : new Map();
    const trunks = views.map((v): TrunkListItemDto => ({
      id: v.id,
      name: v.name,
      status: v.status,
      ai_provider: v.ai_provider,
      sip_username: v.sip_username,
      created_at: v.created_at,
      updated_at: v.updated_at,
      stats: stats.get(v.id) ?? { ...NO_CALLS },
    }));
    return { trunks, pagination };
  }
}

@QueryHandler(GetTrunk)
export class GetTrunkHandler implements IQueryHandler<GetTrunk, TrunkDetailDto> {
  constructor(
    @Inject(READ_MODEL_STORE) private readonly store: ReadModelStore,
    @Inject(READ_SETTINGS) private readonly settings: ReadSettings,
  ) {}

  async execute({ accountId, trunkId, readAhead }: GetTrunk): Promise<TrunkDetailDto> {
    const raw = await readString(this.store, trunkKeys.trunk(trunkId), readAhead);
    const trunk = trunkDetailOf(raw, accountId, this.settings.sipDomain);
    if (!trunk) throw new DomainError('not_found', `Trunk ${trunkId} not found`);
    return trunk;
  }
}

/** The trunk as served from its read-model record; null when missing or another account's. */
export function trunkDetailOf(raw: string | null, accountId: string, sipDomain: string): TrunkDetailDto | null {
  return ownedDetail(trunkDetailFrom(raw, sipDomain), accountId);
}

/** A trunk as served, with the account it belongs to: what trunkDetailOf decides from. */
export interface OwnedTrunkDetail {
  accountId: string;
  detail: TrunkDetailDto;
}

/** The record decoded and the body built, for any account (null when missing). */
export function trunkDetailFrom(raw: string | null, sipDomain: string): OwnedTrunkDetail | null {
  const view = trunkViewCodec.decode(raw);
  return view ? { accountId: view.account_id, detail: detailOf(view, sipDomain) } : null;
}

/** The detail when the trunk is `accountId`'s; null otherwise. */
export function ownedDetail(trunk: OwnedTrunkDetail | null, accountId: string): TrunkDetailDto | null {
  return trunk && trunk.accountId === accountId ? trunk.detail : null;
}

export function detailOf(v: TrunkView, sipDomain: string): TrunkDetailDto {
  return {
    id: v.id,
    name: v.name,
    status: v.status,
    ai_provider: v.ai_provider,
    sip_username: v.sip_username,
    sip_endpoint: `${v.sip_username}@${sipDomain}`,
    created_at: v.created_at,
    updated_at: v.updated_at,
    system_prompt: v.system_prompt,
    vad: v.vad,
    provider_settings: v.provider_settings,
    allowed_addresses: v.allowed_addresses,
    elevenlabs_agent_id: v.elevenlabs_agent_id,
    custom_endpoint: v.custom_endpoint,
  };
}
