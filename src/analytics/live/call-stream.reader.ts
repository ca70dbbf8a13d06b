import { Inject, Injectable } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { CallChangeDto, CallChangesDto } from '../../calls/read/call-changes.dto';
import { feedCursorAfter, headOfCallFeed, ListCallChanges } from '../../calls/read/call-changes.queries';
import { CLICKHOUSE, ClickHouseExecutor } from '../../infrastructure/clickhouse/clickhouse.port';
import { RejectionChangeDto } from '../../rejections/read/rejection.dto';
import { headOfRejections, rejectionsAfter } from '../../rejections/read/rejection-changes.queries';
import { DomainError } from '../../shared/domain-error';
import { StreamPosition } from './call-stream.position';

export type StreamEvent =
  | { kind: 'call'; data: CallChangeDto; position: StreamPosition }
  | { kind: 'rejection'; data: RejectionChangeDto; position: StreamPosition };

export interface StreamRead {
  events: StreamEvent[];
  /** More is stored after these now: read again without waiting. */
  more: boolean;
}

/** Reads per kind at most, per round: what one round can add to a stream's buffer is bounded. */
const PAGE = 100;

/**
 * What a stream sends: the account's call records in the sync feed's order, then its rejections in
 * theirs, each event carrying the position after it in both.
 */
@Injectable()
export class CallStreamReader {
  constructor(
    private readonly queries: QueryBus,
    @Inject(CLICKHOUSE) private readonly clickhouse: ClickHouseExecutor,
  ) {}

  /** After everything stored now: a stream without Last-Event-ID starts here. */
  async head(accountId: string): Promise<StreamPosition> {
    const [callsCursor, rejections] = await Promise.all([
      headOfCallFeed(this.clickhouse),
      headOfRejections(this.clickhouse, accountId),
    ]);
    return { callsCursor, rejections };
  }

  /** `param` names where the position came from, for the 400 of a position that is not one. */
  async after(accountId: string, from: StreamPosition, param: string): Promise<StreamRead> {
    let calls: CallChangesDto;
    try {
      calls = await this.queries.execute(new ListCallChanges(accountId, { cursor: from.callsCursor, limit: PAGE }));
    } catch (error) {
      if (error instanceof DomainError && error.code === 'invalid_params')
        throw new DomainError('invalid_params', `${param} is not an event id this stream sent`, { param });
      throw error;
    }
    const rejections = await rejectionsAfter(this.clickhouse, accountId, from.rejections, PAGE);
    const events: StreamEvent[] = [];
    let position = from;
    for (const call of calls.calls) {
      position = { ...position, callsCursor: feedCursorAfter(call) };
      events.push({ kind: 'call', data: call, position });
    }
    for (const rejection of rejections.rejections) {
      const storedMs = Date.parse(rejection.stored_at);
      position = { ...position, rejections: { storedMs, trunkId: rejection.trunk_id ?? '', id: rejection.id } };
      events.push({ kind: 'rejection', data: rejection, position });
    }
    return { events, more: calls.pagination.has_more || rejections.hasMore };
  }
}
