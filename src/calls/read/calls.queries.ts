import { CALL_RECORDS } from '../../infrastructure/clickhouse/schema';
import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { CLICKHOUSE, ClickHouseExecutor, QueryParams } from '../../infrastructure/clickhouse/clickhouse.port';
import { DomainError } from '../../shared/domain-error';
import { CallDetailDto, CallListDto, ListCallsQueryDto, TurnDto } from './call.dto';
import { CallListRow, callListItem } from '../contracts/call-list-item';
import { CallCursor, decodeCursor, encodeCursor, filterFingerprint } from './call-cursor';
import { parseBound } from '../../platform/http/time-range';

export class ListCalls {
  constructor(
    readonly accountId: string,
    readonly query: ListCallsQueryDto,
  ) {}
}

export class GetCall {
  constructor(
    readonly accountId: string,
    readonly callId: string,
  ) {}
}

const millis = (column: string, alias: string) =>
  `if(${column} IS NULL, NULL, toUnixTimestamp64Milli(${column})) AS ${alias}`;

export const LIST_COLUMNS = `call_id, trunk_id, from_number, to_number, status, duration_seconds, direction,
  toUnixTimestamp64Milli(start_time) AS start_ms, ${millis('end_time', 'end_ms')},
  carrier_lag_ms, ai_latency_ms, gateway_processing_ms, from_e164, to_e164,
  ${millis('invite_at', 'invite_ms')}, ${millis('ringing_at', 'ringing_ms')}, ${millis('answered_at', 'answered_ms')},
  sip_code, failure_class, billable_seconds, mos`;

type ListRow = CallListRow;

/**
 * Newest first by (start_time, call_id), the table's own order, so a cursor page is a range
 * read that costs the same at any depth; each call shows its latest version only.
 */
@QueryHandler(ListCalls)
export class ListCallsHandler implements IQueryHandler<ListCalls, CallListDto> {
  constructor(@Inject(CLICKHOUSE) private readonly clickhouse: ClickHouseExecutor) {}

  async execute({ accountId, query }: ListCalls): Promise<CallListDto> {
    const { where, params } = callFilters(accountId, query);
    const fingerprint = filterFingerprint(query);
    const after = query.cursor !== undefined ? decodeCursor(query.cursor, fingerprint) : null;
    const offset = after ? 0 : query.offset;
    const [rows, [count]] = await Promise.all([
      this.page(where, params, after, offset, query.limit + 1),
      // Each live call is +1 net of its cancelled versions: an exact count without FINAL.
      this.clickhouse.query<{ total: number | string }>(
        `SELECT sum(sign) AS total FROM ${CALL_RECORDS.name} WHERE ${where}`,
        params,
      ),
    ]);
    const hasMore = rows.length > query.limit;
    const last = rows[query.limit - 1];
    return {
      calls: rows.slice(0, query.limit).map(callListItem),
      pagination: {
        limit: query.limit,
        offset,
        total: Number(count.total ?? 0),
        has_more: hasMore,
        next_cursor:
          hasMore && last ? encodeCursor({ startMs: Number(last.start_ms), callId: last.call_id }, fingerprint) : null,
      },
    };
  }

  /**
   * Live calls in the table's own order, read without FINAL (which would stop ClickHouse from
   * reading the newest rows first and stopping early): the rows of one call are adjacent, and a
   * version is live when its cancel row is absent. Reads in chunks until the page is full.
   */
  private async page(
    where: string,
    params: QueryParams,
    after: CallCursor | null,
    offset: number,
    wanted: number,
  ): Promise<ListRow[]> {
    // Deep offsets skip in the engine (FINAL); first pages and cursor pages stream in order.
    if (offset > 0) {
      return this.clickhouse.query<ListRow>(
        `SELECT ${LIST_COLUMNS} FROM ${CALL_RECORDS.name} FINAL WHERE ${where} ORDER BY start_time DESC, call_id DESC LIMIT {limit:UInt32} OFFSET {offset:UInt64}`,
        { ...params, limit: wanted, offset },
      );
    }
    const live: ListRow[] = [];
    let cursor = after;
    const chunk = Math.max(64, wanted * 2);
    for (;;) {
      const bound = cursor
        ? " AND (start_time, call_id) < (fromUnixTimestamp64Milli({cursor_ms:Int64}, 'UTC'), {cursor_id:String})"
        : '';
      const rows = await this.clickhouse.query<ListRow & { version: number; sign: number }>(
        `SELECT ${LIST_COLUMNS}, version, sign FROM ${CALL_RECORDS.name} WHERE ${where}${bound} ORDER BY start_time DESC, call_id DESC LIMIT {chunk:UInt32}`,
        { ...params, chunk, ...(cursor ? { cursor_ms: cursor.startMs, cursor_id: cursor.callId } : {}) },
      );
      const full = rows.length === chunk;
      const groups = groupByCall(rows);
      // A full chunk may have cut the last call's rows: read that call again with the next chunk.
      if (full && groups.length > 1) groups.pop();
      for (const group of groups) {
        const row = liveVersion(group);
        if (!row) continue;
        live.push(row);
        if (live.length === wanted) return live;
      }
      if (!full) return live;
      const lastGroup = groups[groups.length - 1];
      cursor = { startMs: Number(lastGroup[0].start_ms), callId: lastGroup[0].call_id };
    }
  }
}

function groupByCall<T extends ListRow>(rows: T[]): T[][] {
  const groups: T[][] = [];
  for (const row of rows) {
    const current = groups[groups.length - 1];
    if (current && current[0].call_id === row.call_id && Number(current[0].start_ms) === Number(row.start_ms))
      current.push(row);
    else groups.push([row]);
  }
  return groups;
}

/** The version whose +1 row has no cancel row; null when every version is cancelled. */
function liveVersion<T extends ListRow & { version: number; sign: number }>(rows: T[]): T | null {
  const net = new Map<number, number>();
  for (const row of rows) net.set(Number(row.version), (net.get(Number(row.version)) ?? 0) + Number(row.sign));
  const live = rows.filter((row) => Number(row.sign) === 1 && (net.get(Number(row.version)) ?? 0) > 0);
  return live.sort((a, b) => Number(b.version) - Number(a.version))[0] ?? null;
}

@QueryHandler(GetCall)
export class GetCallHandler implements IQueryHandler<GetCall, CallDetailDto> {
  constructor(@Inject(CLICKHOUSE) private readonly clickhouse: ClickHouseExecutor) {}

  async execute({ accountId, callId }: GetCall): Promise<CallDetailDto> {
    const [row] = await this.clickhouse.query<
      ListRow & {
        packet_loss_percent: number | null;
        jitter_ms: number | null;
        codec_used: string;
        disconnect_reason: string;
        turns: string;
        sip_trace: string;
        sip_reason: string;
        q850_cause: number | null;
        retryable: number | null;
        source_address: string;
      }
    >(
      `SELECT ${LIST_COLUMNS}, packet_loss_percent, jitter_ms, codec_used, disconnect_reason, turns, sip_trace,
         sip_reason, q850_cause, retryable, source_address
       FROM ${CALL_RECORDS.name} FINAL WHERE account_id = {account:String} AND call_id = {id:String} LIMIT 1`,
      { account: accountId, id: callId },
    );
    if (!row) throw new DomainError('not_found', `Call ${callId} not found`);
    const item = callListItem(row);
    return {
      ...item,
      ...(row.disconnect_reason ? { disconnect_reason: row.disconnect_reason } : {}),
      metrics: {
        carrier_lag_ms: row.carrier_lag_ms,
        ai_latency_ms: row.ai_latency_ms,
        gateway_processing_ms: row.gateway_processing_ms,
        packet_loss_percent: row.packet_loss_percent,
        jitter_ms: row.jitter_ms,
        codec_used: row.codec_used || null,
        mos: row.mos === null ? null : Number(row.mos),
      },
      turns: turnsOf(row.turns),
      sip_trace: row.sip_trace,
      sip_reason: row.sip_reason || null,
      q850_cause: row.q850_cause === null ? null : Number(row.q850_cause),
      retryable: row.retryable === null ? null : Number(row.retryable) === 1,
      source_address: row.source_address || null,
    };
  }
}

/** Turns as stored; those stored before `interrupted` and `start_offset_ms` existed get their defaults. */
function turnsOf(stored: string): TurnDto[] {
  const turns = JSON.parse(stored || '[]') as (Omit<TurnDto, 'interrupted' | 'start_offset_ms'> & Partial<TurnDto>)[];
  return turns.map((t) => ({ ...t, interrupted: t.interrupted ?? false, start_offset_ms: t.start_offset_ms ?? null }));
}

/** The list filters of GET /v1/calls (an export applies the same). */
export type CallFilters = Pick<
  ListCallsQueryDto,
  'trunk_id' | 'status' | 'from' | 'to' | 'direction' | 'start_date' | 'end_date'
>;

/**
 * Every filter is a bound parameter; the SQL text only varies by which filters are present.
 * Exported for exports (src/exports/run/), which select the same calls.
 */
export function callFilters(accountId: string, q: CallFilters): { where: string; params: QueryParams } {
  const clauses = ['account_id = {account:String}'];
  const params: QueryParams = { account: accountId };
  const add = (clause: string, name: string, value: QueryParams[string] | undefined) => {
    if (value === undefined) return;
    clauses.push(clause);
    params[name] = value;
  };
  add('trunk_id = {trunk:String}', 'trunk', q.trunk_id);
  add('status = {status:String}', 'status', q.status);
  add('from_e164 = {from:String}', 'from', q.from);
  add('to_e164 = {to:String}', 'to', q.to);
  add('direction = {direction:String}', 'direction', q.direction);
  const start = q.start_date !== undefined ? parseBound(q.start_date, 'start_date', 'start') : undefined;
  const end = q.end_date !== undefined ? parseBound(q.end_date, 'end_date', 'end') : undefined;
  if (start && end && end < start)
    throw new DomainError('invalid_params', 'end_date is before start_date', { param: 'end_date' });
  add("start_time >= fromUnixTimestamp64Milli({start_ms:Int64}, 'UTC')", 'start_ms', start?.getTime());
  add("start_time <= fromUnixTimestamp64Milli({end_ms:Int64}, 'UTC')", 'end_ms', end?.getTime());
  return { where: clauses.join(' AND '), params };
}
