import { CALL_FEED_HORIZON, CALL_REJECTIONS, FEED_HORIZON_IDS } from '../../infrastructure/clickhouse/schema';
import { ClickHouseExecutor } from '../../infrastructure/clickhouse/clickhouse.port';
import { DomainError } from '../../shared/domain-error';
import { RejectionChangeDto } from './rejection.dto';
import { present, Row } from './rejections.queries';

/** Where a reader of the account's rejections in storage order has got to. */
export interface RejectionPosition {
  storedMs: number;
  trunkId: string;
  id: string;
}

export interface RejectionChanges {
  rejections: RejectionChangeDto[];
  /** After the last one listed (the position given when none was). */
  position: RejectionPosition;
  hasMore: boolean;
}

const AFTER_ALL = '\uffff';

/**
 * The account's rejections in the order they were stored, (ingested_at, trunk_id, id), up to the
 * published horizon: ingestion stamps each INSERT above the horizon and raises it after the
 * INSERT returned (rejection-ingestion.service.ts), so a position once passed is never written
 * behind. A re-sent rejection appears again, like a re-sent call record in the sync feed.
 */
export async function rejectionsAfter(
  clickhouse: ClickHouseExecutor,
  accountId: string,
  after: RejectionPosition,
  limit: number,
): Promise<RejectionChanges> {
  const rows = await clickhouse.query<Row & { trunk_id: string; stored_ms: number | string }>(
    `SELECT rejection_id, trunk_id, toUnixTimestamp64Milli(at) AS at_ms, toUnixTimestamp64Milli(ingested_at) AS stored_ms,
            reason, sip_code, sip_reason, source_address, sip_username, from_number, to_number
     FROM ${CALL_REJECTIONS.name}
     WHERE account_id = {account:String}
       AND toUnixTimestamp64Milli(ingested_at) <= (SELECT max(version) FROM ${CALL_FEED_HORIZON.name} WHERE id = {horizon:UInt8})
       AND (toUnixTimestamp64Milli(ingested_at), trunk_id, rejection_id) > ({after_ms:Int64}, {after_trunk:String}, {after_id:String})
     ORDER BY stored_ms, trunk_id, rejection_id
     LIMIT 1 BY stored_ms, trunk_id, rejection_id
     LIMIT {limit:UInt32}`,
    {
      account: accountId,
      horizon: FEED_HORIZON_IDS.rejections,
      after_ms: after.storedMs,
      after_trunk: after.trunkId,
      after_id: after.id,
      limit: limit + 1,
    },
  );
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  return {
    rejections: page.map((row) => ({
      ...present(row),
      trunk_id: row.trunk_id || null,
      stored_at: new Date(Number(row.stored_ms)).toISOString(),
    })),
    position: last ? { storedMs: Number(last.stored_ms), trunkId: last.trunk_id, id: last.rejection_id } : after,
    hasMore: rows.length > limit,
  };
}

/**
 * After every rejection stored so far. Rows stored before the horizon existed (ingested_at above
 * it) count as stored: a new stream starts after them instead of replaying them.
 */
export async function headOfRejections(clickhouse: ClickHouseExecutor, accountId: string): Promise<RejectionPosition> {
  const [row] = await clickhouse.query<{ ms: number | string }>(
    `SELECT greatest(
       (SELECT max(version) FROM ${CALL_FEED_HORIZON.name} WHERE id = {horizon:UInt8}),
       (SELECT toUInt64(ifNull(max(toUnixTimestamp64Milli(ingested_at)), 0)) FROM ${CALL_REJECTIONS.name} WHERE account_id = {account:String})
     ) AS ms`,
    { account: accountId, horizon: FEED_HORIZON_IDS.rejections },
  );
  return { storedMs: Number(row?.ms ?? 0), trunkId: AFTER_ALL, id: AFTER_ALL };
}

/** Below zero, zero or above as `a` is before, at or after `b` in the stored order (strings byte by byte, as ClickHouse). */
export function compareRejectionPositions(a: RejectionPosition, b: RejectionPosition): number {
  return (
    a.storedMs - b.storedMs ||
    Buffer.compare(Buffer.from(a.trunkId), Buffer.from(b.trunkId)) ||
    Buffer.compare(Buffer.from(a.id), Buffer.from(b.id))
  );
}

/** Checks a position decoded from a client's text (the stream's Last-Event-ID). */
export function rejectionPositionOf(value: unknown, param: string): RejectionPosition {
  const [storedMs, trunkId, id] = Array.isArray(value) ? (value as unknown[]) : [];
  if (
    Number.isSafeInteger(storedMs) &&
    (storedMs as number) >= 0 &&
    typeof trunkId === 'string' &&
    trunkId.length <= 100 &&
    typeof id === 'string' &&
    id.length <= 100
  )
    return { storedMs: storedMs as number, trunkId, id };
  throw new DomainError('invalid_params', `${param} is not an event id this stream sent`, { param });
}
