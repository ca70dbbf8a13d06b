import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { EVENT_STORE, EventStore, StoredEvent } from '../../infrastructure/event-store/event-store.port';
import { ACTOR_NAMES, ActorNames } from './actor-names.port';
import { READ_SETTINGS, ReadSettings } from './read.settings';
import { fold } from '../../shared/decider';
import { DomainError } from '../../shared/domain-error';
import { isEncryptedSecret } from '../../shared/encrypted-secret';
import { TrunkState, trunkDecider, trunkStream } from '../domain/trunk.decider';
import { isTrunkEvent } from '../domain/trunk.events';
import { TrunkDetailDto, TrunkHistoryDto, TrunkHistoryEventDto } from './trunk.dto';

/*
 * The auditor's views read the trunk's own stream: the history IS the log, so no read model
 * could answer better. Everything else on the read side is served from read models, the names of
 * the keys that acted included (ActorNames: the api-keys read model).
 */

export class GetTrunkHistory {
  constructor(
    readonly accountId: string,
    readonly trunkId: string,
    readonly limit: number,
    readonly offset: number,
  ) {}
}

export class GetTrunkAsOf {
  constructor(
    readonly accountId: string,
    readonly trunkId: string,
    readonly asOf: Date,
  ) {}
}

async function ownedHistory(events: EventStore, accountId: string, trunkId: string): Promise<StoredEvent[]> {
  const history = await events.readStream(trunkStream(trunkId));
  const created = history[0]?.data as { account_id?: string } | undefined;
  if (!created || created.account_id !== accountId) throw new DomainError('not_found', `Trunk ${trunkId} not found`);
  return history;
}

@QueryHandler(GetTrunkHistory)
export class GetTrunkHistoryHandler implements IQueryHandler<GetTrunkHistory, TrunkHistoryDto> {
  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(ACTOR_NAMES) private readonly actorNames: ActorNames,
  ) {}

  async execute({ accountId, trunkId, limit, offset }: GetTrunkHistory): Promise<TrunkHistoryDto> {
    const history = await ownedHistory(this.events, accountId, trunkId);
    const page = history.slice(offset, offset + limit).map(historyEventOf);
    const names = await this.actorNames.namesOf(
      accountId,
      page.flatMap((e) => (e.actor ? [e.actor] : [])),
    );
    const events = page.map((e) => ({ ...e, actor_name: (e.actor && names.get(e.actor)) ?? null }));
    return { events, pagination: { limit, offset, total: history.length } };
  }
}

/**
 * One event as the API (and the trunks:history CLI) shows it: who, when, secrets redacted. The
 * actor's name is left null for the caller to add (the query from the api-keys read model).
 */
export function historyEventOf(e: StoredEvent): TrunkHistoryEventDto {
  return {
    revision: e.revision,
    type: e.type,
    recorded_at: e.recordedAt.toISOString(),
    actor: typeof e.metadata.actor === 'string' ? e.metadata.actor : null,
    actor_name: null,
    correlation_id: typeof e.metadata.correlation_id === 'string' ? e.metadata.correlation_id : null,
    data: redact(e.data) as object,
  };
}

@QueryHandler(GetTrunkAsOf)
export class GetTrunkAsOfHandler implements IQueryHandler<GetTrunkAsOf, TrunkDetailDto> {
  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(READ_SETTINGS) private readonly settings: ReadSettings,
  ) {}

  async execute({ accountId, trunkId, asOf }: GetTrunkAsOf): Promise<TrunkDetailDto> {
    const history = await ownedHistory(this.events, accountId, trunkId);
    const until = history.filter((e) => e.recordedAt.getTime() <= asOf.getTime()).filter(isTrunkEvent);
    const state = fold(trunkDecider, until);
    if (state.status === 'none' || state.status === 'deleted')
      throw new DomainError('not_found', `Trunk ${trunkId} did not exist at ${asOf.toISOString()}`);
    return detailOfState(state, this.settings.sipDomain);
  }
}

/** A folded trunk as the API shows it; the trunks:history CLI also shows a deleted one. */
export function detailOfState<T extends Exclude<TrunkState, { status: 'none' }>>(
  t: T,
  sipDomain: string,
): Omit<TrunkDetailDto, 'status'> & { status: T['status'] } {
  return {
    id: t.trunkId,
    name: t.name,
    status: t.status,
    ai_provider: t.provider,
    sip_username: t.sipUsername,
    sip_endpoint: `${t.sipUsername}@${sipDomain}`,
    created_at: t.createdAt,
    updated_at: t.updatedAt,
    ...t.settings,
    elevenlabs_agent_id: t.wiring.elevenlabs_agent_id ?? null,
    custom_endpoint: t.wiring.custom_endpoint ?? null,
  };
}

/** Encrypted secrets become "[redacted]": auditors see that a secret changed, never its bytes. */
export function redact(value: unknown): unknown {
  if (isEncryptedSecret(value)) return '[redacted]';
  if (Array.isArray(value)) return value.map(redact);
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, redact(v)]));
  return value;
}
