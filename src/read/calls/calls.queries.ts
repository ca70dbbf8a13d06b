import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { CLICKHOUSE, ClickHouseExecutor, QueryParams } from '../../infrastructure/clickhouse/clickhouse.port';
import { DomainError } from '../../shared/domain-error';
import { CallDetailDto, CallListDto, CallListItemDto, ListCallsQueryDto } from './call.dto';
import { decodeCursor, encodeCursor, filterFingerprint } from './call-cursor';
import { parseBound } from './time-range';

export class ListCalls {
  constructor(readonly accountId: string, readonly query: ListCallsQueryDto) {}
}

export class GetCall {
  constructor(readonly accountId: string, readonly callId: string) {}
}

const LIST_COLUMNS = `call_id, trunk_id, from_number, to_number, status, duration_seconds, direction,
  toUnixTimestamp64Milli(start_time) AS start_ms, if(end_time IS NULL, NULL, toUnixTimestamp64Milli(end_time)) AS end_ms,
  carrier_lag_ms, ai_latency_ms, gateway_processing_ms`;

interface ListRow {
  call_id: string; trunk_id: string; from_number: string; to_number: string; status: string; duration_seconds: number; direction: string;
  start_ms: number | string; end_ms: number | string | null; carrier_lag_ms: number | null; ai_latency_ms: number | null; gateway_processing_ms: number | null;
}

/**
 * Newest first by (start_time, call_id), the table's own order, so a cursor page is a range
 * read that costs the same at any depth. FINAL shows each call's latest version only.
 */
@QueryHandler(ListCalls)
export class ListCallsHandler implements IQueryHandler<ListCalls, CallListDto> {
  constructor(@Inject(CLICKHOUSE) private readonly clickhouse: ClickHouseExecutor) {}

  async execute({ accountId, query }: ListCalls): Promise<CallListDto> {
    const { where, params } = filters(accountId, query);
    const fingerprint = filterFingerprint(query);
    let page = where;
    if (query.cursor !== undefined) {
      const cursor = decodeCursor(query.cursor, fingerprint);
      page += ' AND (start_time, call_id) < (fromUnixTimestamp64Milli({cursor_ms:Int64}, \'UTC\'), {cursor_id:String})';
      Object.assign(params, { cursor_ms: cursor.startMs, cursor_id: cursor.callId });
    }
    const offset = query.cursor !== undefined ? 0 : query.offset;
    const [rows, [count]] = await Promise.all([
      this.clickhouse.query<ListRow>(
        `SELECT ${LIST_COLUMNS} FROM call_records FINAL WHERE ${page} ORDER BY start_time DESC, call_id DESC LIMIT {limit:UInt32} OFFSET {offset:UInt64}`,
        { ...params, limit: query.limit + 1, offset },
      ),
      this.clickhouse.query<{ total: number | string }>(`SELECT count() AS total FROM call_records FINAL WHERE ${where}`, params),
    ]);
    const hasMore = rows.length > query.limit;
    const calls = rows.slice(0, query.limit).map(listItem);
    const last = rows[query.limit - 1];
    return {
      calls,
      pagination: {
        limit: query.limit, offset, total: Number(count.total), has_more: hasMore,
        next_cursor: hasMore && last ? encodeCursor({ startMs: Number(last.start_ms), callId: last.call_id }, fingerprint) : null,
      },
    };
  }
}

@QueryHandler(GetCall)
export class GetCallHandler implements IQueryHandler<GetCall, CallDetailDto> {
  constructor(@Inject(CLICKHOUSE) private readonly clickhouse: ClickHouseExecutor) {}

  async execute({ accountId, callId }: GetCall): Promise<CallDetailDto> {
    const [row] = await this.clickhouse.query<ListRow & { packet_loss_percent: number | null; jitter_ms: number | null; codec_used: string; disconnect_reason: string; turns: string; sip_trace: string }>(
      `SELECT ${LIST_COLUMNS}, packet_loss_percent, jitter_ms, codec_used, disconnect_reason, turns, sip_trace
       FROM call_records FINAL WHERE account_id = {account:String} AND call_id = {id:String} LIMIT 1`,
      { account: accountId, id: callId },
    );
    if (!row) throw new DomainError('not_found', `Call ${callId} not found`);
    const item = listItem(row);
    return {
      ...item,
      ...(row.disconnect_reason ? { disconnect_reason: row.disconnect_reason } : {}),
      metrics: {
        carrier_lag_ms: row.carrier_lag_ms, ai_latency_ms: row.ai_latency_ms, gateway_processing_ms: row.gateway_processing_ms,
        packet_loss_percent: row.packet_loss_percent, jitter_ms: row.jitter_ms, codec_used: row.codec_used || null,
      },
      turns: JSON.parse(row.turns || '[]'),
      sip_trace: row.sip_trace,
    };
  }
}

function listItem(row: ListRow): CallListItemDto {
  return {
    id: row.call_id, trunk_id: row.trunk_id, from: row.from_number, to: row.to_number, status: row.status, duration_seconds: Number(row.duration_seconds),
    start_time: new Date(Number(row.start_ms)).toISOString(), end_time: row.end_ms === null ? null : new Date(Number(row.end_ms)).toISOString(),
    carrier_lag_ms: row.carrier_lag_ms, ai_latency_ms: row.ai_latency_ms, gateway_processing_ms: row.gateway_processing_ms, direction: row.direction,
  };
}

/** Every filter is a bound parameter; the SQL text only varies by which filters are present. */
function filters(accountId: string, q: ListCallsQueryDto): { where: string; params: QueryParams } {
  const clauses = ['account_id = {account:String}'];
  const params: QueryParams = { account: accountId };
  const add = (clause: string, name: string, value: QueryParams[string] | undefined) => {
    if (value === undefined) return;
    clauses.push(clause);
    params[name] = value;
  };
  add('trunk_id = {trunk:String}', 'trunk', q.trunk_id);
  add('status = {status:String}', 'status', q.status);
  add('from_number = {from:String}', 'from', q.from);
  add('to_number = {to:String}', 'to', q.to);
  add('direction = {direction:String}', 'direction', q.direction);
  const start = q.start_date !== undefined ? parseBound(q.start_date, 'start_date', 'start') : undefined;
  const end = q.end_date !== undefined ? parseBound(q.end_date, 'end_date', 'end') : undefined;
  if (start && end && end < start) throw new DomainError('invalid_params', 'end_date is before start_date', { param: 'end_date' });
  add("start_time >= fromUnixTimestamp64Milli({start_ms:Int64}, 'UTC')", 'start_ms', start?.getTime());
  add("start_time <= fromUnixTimestamp64Milli({end_ms:Int64}, 'UTC')", 'end_ms', end?.getTime());
  return { where: clauses.join(' AND '), params };
}

