import { CALL_REJECTIONS } from '../../infrastructure/clickhouse/schema';
import type { ClickHouseExecutor } from '../../infrastructure/clickhouse/clickhouse.port';
import { REJECTION_REASONS } from '../rejection';

export interface RejectionCounts {
  total: number;
  /** Every reason, 0 where there were none. */
  by_reason: Record<string, number>;
}

/**
 * Rejections of an account (or one trunk) in [from_ms, to_ms], by reason, each id once. Parameters
 * account, trunk (withTrunk), from_ms, to_ms; the overview runs it inside its one statement.
 */
export const rejectionCountsSql = (withTrunk: boolean): string =>
  `SELECT reason, count() AS n FROM ${CALL_REJECTIONS.name} FINAL
     WHERE account_id = {account:String} ${withTrunk ? 'AND trunk_id = {trunk:String}' : ''}
       AND at >= fromUnixTimestamp64Milli({from_ms:Int64}, 'UTC') AND at <= fromUnixTimestamp64Milli({to_ms:Int64}, 'UTC')
     GROUP BY reason`;

/** Counts by reason, every reason present. */
export function rejectionCounts(rows: { reason: string; n: number | string }[]): RejectionCounts {
  const by_reason: Record<string, number> = Object.fromEntries(REJECTION_REASONS.map((reason) => [reason, 0]));
  let total = 0;
  for (const row of rows) {
    by_reason[row.reason] = Number(row.n);
    total += Number(row.n);
  }
  return { total, by_reason };
}

/** Rejections of an account (or one trunk) in [from, to], by reason, each id once. */
export async function countRejections(
  clickhouse: ClickHouseExecutor,
  accountId: string,
  trunkId: string | undefined,
  from: Date,
  to: Date,
): Promise<RejectionCounts> {
  const rows = await clickhouse.query<{ reason: string; n: number | string }>(rejectionCountsSql(!!trunkId), {
    account: accountId,
    ...(trunkId ? { trunk: trunkId } : {}),
    from_ms: from.getTime(),
    to_ms: to.getTime(),
  });
  return rejectionCounts(rows);
}
