import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { AUDIT_LOG, type AuditLogReader } from '../../eventsourcing/audit-log.port';
import type { GlobalPosition, StoredEvent } from '../../infrastructure/event-store/event-store.port';
import { fold } from '../../shared/decider';
import { type LiveTrunk, trunkDecider, type TrunkState, trunkStream } from '../domain/trunk.decider';
import { isTrunkEvent, type TrunkEvent } from '../domain/trunk.events';
import type { TrunkStatus } from '../domain/trunk.types';
import { NO_CALLS, TRUNK_STATS_READER, type TrunkStatsReader } from './trunk-stats.port';
import type { TrunkListDto, TrunkListItemDto } from './trunk.dto';

export class ListTrunksAsOf {
  constructor(
    readonly accountId: string,
    readonly asOf: Date,
    readonly limit: number,
    readonly offset: number,
    readonly status: TrunkStatus | undefined,
    readonly order: 'asc' | 'desc',
  ) {}
}

const PAGE = 1000;

/**
 * The account's trunks as they were at an instant: every trunk event of the account recorded up
 * to then, from the audit log (the event log itself), folded per trunk. Like the per-trunk as_of,
 * history is the one source that can answer; `stats` are the figures of that instant's UTC day.
 */
@QueryHandler(ListTrunksAsOf)
export class ListTrunksAsOfHandler implements IQueryHandler<ListTrunksAsOf, TrunkListDto> {
  constructor(
    @Inject(AUDIT_LOG) private readonly log: AuditLogReader,
    @Inject(TRUNK_STATS_READER) private readonly stats: TrunkStatsReader,
  ) {}

  async execute({ accountId, asOf, limit, offset, status, order }: ListTrunksAsOf): Promise<TrunkListDto> {
    const histories = await this.histories(accountId, asOf);
    const trunks = [...histories.values()]
      .map((events) => fold(trunkDecider, events))
      .filter((t: TrunkState): t is LiveTrunk => t.status !== 'none' && t.status !== 'deleted')
      .filter((t) => status === undefined || t.status === status)
      .sort(
        (a, b) =>
          (order === 'asc' ? 1 : -1) * (a.createdAt.localeCompare(b.createdAt) || a.trunkId.localeCompare(b.trunkId)),
      );
    const page = trunks.slice(offset, offset + limit);
    const stats =
      page.length > 0
        ? await this.stats.statsFor(
            accountId,
            page.map((t) => t.trunkId),
            asOf,
          )
        : new Map();
    return {
      trunks: page.map((t): TrunkListItemDto => ({
        id: t.trunkId,
        name: t.name,
        status: t.status,
        ai_provider: t.provider,
        sip_username: t.sipUsername,
        created_at: t.createdAt,
        updated_at: t.updatedAt,
        stats: stats.get(t.trunkId) ?? { ...NO_CALLS },
      })),
      // A past list is a fixed snapshot: offsets cannot shift in it, so it pages by offset only.
      pagination: {
        limit,
        offset,
        total: trunks.length,
        has_more: offset + limit < trunks.length,
        next_cursor: null,
      },
    };
  }

  private async histories(accountId: string, asOf: Date): Promise<Map<string, TrunkEvent[]>> {
    const byTrunk = new Map<string, TrunkEvent[]>();
    const filter = { streamPrefix: trunkStream(''), to: asOf };
    let after: GlobalPosition | null = null;
    let page: StoredEvent[];
    do {
      page = await this.log.read({ accountId, after, limit: PAGE, filter });
      for (const event of page.filter(isTrunkEvent)) {
        const history = byTrunk.get(event.streamId) ?? [];
        history.push({ type: event.type, data: event.data } as TrunkEvent);
        byTrunk.set(event.streamId, history);
      }
      after = page.length > 0 ? page[page.length - 1].position : after;
    } while (page.length === PAGE);
    return byTrunk;
  }
}
