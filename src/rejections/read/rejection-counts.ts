import { CALL_REJECTIONS } from '../../infrastructure/clickhouse/schema';
import type { ClickHouseExecutor } from '../../infrastructure/clickhouse/clickhouse.port';
import { REJECTION_REASONS } from '../rejection';

export interface SipCodeCount {
  sip_code: number | null;
  count: number;
}

export interface RejectionCounts {
  total: number;
  /** Every reason, 0 where there were none. */
  by_reason: Record<string, number>;
  /** The codes the gateway answered, the most frequent first. */
  by_sip_code: SipCodeCount[];
}

/**
 * Rejections of an account (or one trunk) in [from_ms, to_ms], by reason and SIP code, each id
 * once. Parameters account, trunk (withTrunk), from_ms, to_ms; the overview runs it inside its one
 * statement.
 */
export const rejectionCountsSql = (withTrunk: boolean): string =>
  `SELECT reason, sip_code, count() AS n FROM ${CALL_REJECTIONS.name} FINAL
     WHERE account_id = {account:String} ${withTrunk ? 'AND trunk_id = {trunk:String}' : ''}
       AND at >= fromUnixTimestamp64Milli({from_ms:Int64}, 'UTC') AND at <= fromUnixTimestamp64Milli({to_ms:Int64}, 'UTC')
     GROUP BY reason, sip_code`;

/** Counts by SIP code, zero and negative counts left out, the largest first (ties by code, none last). */
export function bySipCode(counts: Map<number | null, number>): SipCodeCount[] {
  return [...counts.entries()]
    .filter(([, count]) => count > 0)
    .sort((a, b) => b[1] - a[1] || (a[0] ?? 1000) - (b[0] ?? 1000))
    .map(([sip_code, count]) => ({ sip_code, count }));
}

/** Counts by reason, every reason present, and by SIP code. */
export function rejectionCounts(
  rows: { reason: string; sip_code: number | string; n: number | string }[],
): RejectionCounts {
  const by_reason: Record<string, number> = Object.fromEntries(REJECTION_REASONS.map((reason) => [reason, 0]));
  const codes = new Map<number | null, number>();
  let total = 0;
  for (const row of rows) {
    const n = Number(row.n);
    const code = Number(row.sip_code);
    by_reason[row.reason] = (by_reason[row.reason] ?? 0) + n;
    codes.set(code, (codes.get(code) ?? 0) + n);
    total += n;
  }
  return { total, by_reason, by_sip_code: bySipCode(codes) };
}

/** Rejections of an account (or one trunk) in [from, to], by reason, each id once. */
export async function countRejections(
  clickhouse: ClickHouseExecutor,
  accountId: string,
  trunkId: string | undefined,
  from: Date,
  to: Date,
): Promise<RejectionCounts> {
  const rows = await clickhouse.query<{ reason: string; sip_code: number; n: number | string }>(
    rejectionCountsSql(!!trunkId),
    {
      account: accountId,
      ...(trunkId ? { trunk: trunkId } : {}),
      from_ms: from.getTime(),
      to_ms: to.getTime(),
    },
  );
  return rejectionCounts(rows);
}
