import { CALL_REJECTIONS } from '../../infrastructure/clickhouse/schema';
import { createHash } from 'node:crypto';
import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { CLICKHOUSE, ClickHouseExecutor } from '../../infrastructure/clickhouse/clickhouse.port';
import { READ_MODEL_STORE, ReadModelStore } from '../../infrastructure/read-model/read-model-store.port';
import { trunkKeys, trunkViewCodec } from '../../trunks/projections/trunk-view';
import { parseBound } from '../../platform/http/time-range';
import { DomainError } from '../../shared/domain-error';
import { RejectionRow } from '../rejection';
import {
  CallRejectionDto,
  CallRejectionListDto,
  ListRejectionsQueryDto,
  ListUnownedRejectionsQueryDto,
} from './rejection.dto';

export class ListTrunkRejections {
  constructor(
    readonly accountId: string,
    readonly trunkId: string,
    readonly query: ListRejectionsQueryDto,
    readonly now: Date,
  ) {}
}

const DAY = 86_400_000;

export type Row = Pick<
  RejectionRow,
  | 'rejection_id'
  | 'reason'
  | 'sip_code'
  | 'sip_reason'
  | 'source_address'
  | 'sip_username'
  | 'from_number'
  | 'to_number'
> & { at_ms: number | string };

/** A trunk's rejections, newest first, by (at, id): the table's order, so a cursor page is a range read. */
@QueryHandler(ListTrunkRejections)
export class ListTrunkRejectionsHandler implements IQueryHandler<ListTrunkRejections, CallRejectionListDto> {
  constructor(
    @Inject(READ_MODEL_STORE) private readonly store: ReadModelStore,
    @Inject(CLICKHOUSE) private readonly clickhouse: ClickHouseExecutor,
  ) {}

  async execute({ accountId, trunkId, query, now }: ListTrunkRejections): Promise<CallRejectionListDto> {
    const trunk = /^conn_[A-Za-z0-9]{1,64}$/.test(trunkId)
      ? trunkViewCodec.decode(await this.store.get(trunkKeys.trunk(trunkId)))
      : null;
    if (!trunk || trunk.account_id !== accountId) throw new DomainError('not_found', `Trunk ${trunkId} not found`);
    return pageOfRejections(this.clickhouse, { account: accountId, trunk: trunkId }, query, [trunkId], now);
  }
}

export class ListUnownedRejections {
  constructor(
    readonly query: ListUnownedRejectionsQueryDto,
    readonly now: Date,
  ) {}
}

/**
 * The rejections that belong to no account (a gateway key's INVITEs for unknown user names, banned
 * sources that named no trunk), for the operator: stored under account '' and trunk '', the head
 * of the table's order, so a page is a range read like a trunk's.
 */
@QueryHandler(ListUnownedRejections)
export class ListUnownedRejectionsHandler implements IQueryHandler<ListUnownedRejections, CallRejectionListDto> {
  constructor(@Inject(CLICKHOUSE) private readonly clickhouse: ClickHouseExecutor) {}

  execute({ query, now }: ListUnownedRejections): Promise<CallRejectionListDto> {
    const filters = { reason: query.reason, source_address: query.source_address };
    return pageOfRejections(
      this.clickhouse,
      { account: '', trunk: '', ...filters },
      query,
      ['', ...Object.values(filters)],
      now,
    );
  }
}

interface Where {
  account: string;
  trunk: string;
  reason?: string;
  source_address?: string;
}

/** One page, newest first by (at, id), of the rejections `where` selects; the cursor is bound to `bound`. */
async function pageOfRejections(
  clickhouse: ClickHouseExecutor,
  where: Where,
  query: ListRejectionsQueryDto,
  bound: (string | undefined)[],
  now: Date,
): Promise<CallRejectionListDto> {
  const to = query.to ? parseBound(query.to, 'to', 'end') : now;
  const from = query.from ? parseBound(query.from, 'from', 'start') : new Date(to.getTime() - 7 * DAY);
  if (to < from) throw new DomainError('invalid_params', 'to is before from', { param: 'to' });
  const fingerprint = createHash('sha256').update(
    [...bound, query.from ?? '', query.to ?? ''].map((v) => v ?? '').join('\u0000'),
  );
  const print = fingerprint.digest('base64url').slice(0, 10);
  const after = query.cursor ? decode(query.cursor, print) : null;
  const rows = await clickhouse.query<Row>(
    `SELECT rejection_id, toUnixTimestamp64Milli(at) AS at_ms, reason, sip_code, sip_reason, source_address,
            sip_username, from_number, to_number
     FROM ${CALL_REJECTIONS.name} FINAL
     WHERE account_id = {account:String} AND trunk_id = {trunk:String}
       AND at >= fromUnixTimestamp64Milli({from_ms:Int64}, 'UTC') AND at <= fromUnixTimestamp64Milli({to_ms:Int64}, 'UTC')
       ${where.reason !== undefined ? 'AND reason = {reason:String}' : ''}
       ${where.source_address !== undefined ? 'AND source_address = {source_address:String}' : ''}
       ${after ? "AND (at, rejection_id) < (fromUnixTimestamp64Milli({cursor_ms:Int64}, 'UTC'), {cursor_id:String})" : ''}
     ORDER BY at DESC, rejection_id DESC LIMIT {limit:UInt32}`,
    {
      ...Object.fromEntries(Object.entries(where).filter(([, v]) => v !== undefined)),
      from_ms: from.getTime(),
      to_ms: to.getTime(),
      limit: query.limit + 1,
      ...(after ? { cursor_ms: after.ms, cursor_id: after.id } : {}),
    },
  );
  const page = rows.slice(0, query.limit);
  const last = page[page.length - 1];
  const hasMore = rows.length > query.limit;
  return {
    rejections: page.map(present),
    pagination: {
      limit: query.limit,
      has_more: hasMore,
      next_cursor: hasMore && last ? encode(Number(last.at_ms), last.rejection_id, print) : null,
    },
  };
}

export function present(row: Row): CallRejectionDto {
  return {
    id: row.rejection_id,
    at: new Date(Number(row.at_ms)).toISOString(),
    reason: row.reason,
    sip_code: Number(row.sip_code),
    sip_reason: row.sip_reason || null,
    source_address: row.source_address,
    sip_username: row.sip_username || null,
    from: row.from_number || null,
    to: row.to_number || null,
  };
}

const encode = (ms: number, id: string, print: string) =>
  Buffer.from(JSON.stringify([ms, id, print])).toString('base64url');

function decode(text: string, print: string): { ms: number; id: string } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
  } catch {
    parsed = null;
  }
  const [ms, id, issued] = Array.isArray(parsed) ? parsed : [];
  if (typeof ms !== 'number' || !Number.isSafeInteger(ms) || typeof id !== 'string' || id.length > 100)
    throw new DomainError('invalid_params', 'cursor is not a cursor this API returned', { param: 'cursor' });
  if (issued !== print)
    throw new DomainError('invalid_params', 'cursor was issued for other filters', { param: 'cursor' });
  return { ms, id };
}
