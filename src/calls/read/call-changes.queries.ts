import { CALL_FEED_HORIZON, CALL_RECORDS, FEED_HORIZON_IDS } from '../../infrastructure/clickhouse/schema';
import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { CLICKHOUSE, ClickHouseExecutor } from '../../infrastructure/clickhouse/clickhouse.port';
import { DomainError } from '../../shared/domain-error';
import { CallChangesDto, CallChangesQueryDto } from './call-changes.dto';
import { CallListRow, callListItem } from '../contracts/call-list-item';
import { LIST_COLUMNS } from './calls.queries';

export class ListCallChanges {
  constructor(
    readonly accountId: string,
    readonly query: CallChangesQueryDto,
  ) {}
}

interface Position {
  version: number;
  callId: string;
}

/**
 * The sync feed: the account's stored records in storage order, (version, call_id), every stored
 * version once, up to the published horizon (006-call-feed.ts): the writer raises each version
 * above the horizon before its INSERT and publishes the new horizon after it, so nothing can be
 * stored later at or below a position already served. A cursor is that position: resumable at
 * any time, with no gap and no repeat.
 */
@QueryHandler(ListCallChanges)
export class ListCallChangesHandler implements IQueryHandler<ListCallChanges, CallChangesDto> {
  constructor(@Inject(CLICKHOUSE) private readonly clickhouse: ClickHouseExecutor) {}

  async execute({ accountId, query }: ListCallChanges): Promise<CallChangesDto> {
    const after = query.cursor ? decodePosition(query.cursor) : { version: 0, callId: '' };
    const rows = await this.clickhouse.query<CallListRow & { version: number | string; stored_ms: number | string }>(
      `SELECT ${LIST_COLUMNS}, version, toUnixTimestamp64Milli(ingested_at) AS stored_ms FROM ${CALL_RECORDS.name}
       WHERE account_id = {account:String} AND sign = 1
         AND version <= (SELECT max(version) FROM ${CALL_FEED_HORIZON.name} WHERE id = {horizon:UInt8})
         AND (version, call_id) > ({after_version:UInt64}, {after_id:String})
       ORDER BY version, call_id LIMIT {limit:UInt32}`,
      {
        account: accountId,
        horizon: FEED_HORIZON_IDS.calls,
        after_version: after.version,
        after_id: after.callId,
        limit: query.limit + 1,
      },
    );
    const page = rows.slice(0, query.limit);
    const last = page[page.length - 1];
    return {
      calls: page.map((row) => ({
        ...callListItem(row),
        version: Number(row.version),
        stored_at: new Date(Number(row.stored_ms)).toISOString(),
      })),
      pagination: {
        limit: query.limit,
        has_more: rows.length > query.limit,
        next_cursor: encodePosition(last ? { version: Number(last.version), callId: last.call_id } : after),
      },
    };
  }
}

/**
 * A cursor after everything stored so far: where a client that wants only what is stored from now
 * on starts (the live stream without Last-Event-ID). Versions at the horizon are all before it.
 */
export async function headOfCallFeed(clickhouse: ClickHouseExecutor): Promise<string> {
  const [row] = await clickhouse.query<{ version: number | string }>(
    `SELECT max(version) AS version FROM ${CALL_FEED_HORIZON.name} WHERE id = {horizon:UInt8}`,
    { horizon: FEED_HORIZON_IDS.calls },
  );
  return encodePosition({ version: Number(row?.version ?? 0), callId: '\uffff' });
}

/** The cursor right after one record of the feed: resuming from it lists what follows that record. */
export const feedCursorAfter = (call: { id: string; version: number }): string =>
  encodePosition({ version: call.version, callId: call.id });

/**
 * Below zero, zero or above as cursor `a` is before, at or after `b` in the feed's order: version,
 * then call id compared byte by byte (as ClickHouse compares strings). Both must be cursors.
 */
export function compareFeedCursors(a: string, b: string): number {
  const [x, y] = [decodePosition(a), decodePosition(b)];
  return x.version - y.version || Buffer.compare(Buffer.from(x.callId), Buffer.from(y.callId));
}

function encodePosition(position: Position): string {
  return Buffer.from(JSON.stringify(['feed', position.version, position.callId])).toString('base64url');
}

function decodePosition(text: string): Position {
  try {
    const [kind, version, callId] = JSON.parse(Buffer.from(text, 'base64url').toString('utf8')) as unknown[];
    if (kind === 'feed' && Number.isSafeInteger(version) && (version as number) >= 0 && typeof callId === 'string')
      return { version: version as number, callId };
  } catch {
    // Not JSON: refused below like any other text that is not a cursor.
  }
  throw new DomainError('invalid_params', 'cursor is not a cursor this feed returned', { param: 'cursor' });
}
