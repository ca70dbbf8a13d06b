import { CALL_RECORDS } from '../../infrastructure/clickhouse/schema';
import { ClickHouseExecutor } from '../../infrastructure/clickhouse/clickhouse.port';
import { CallRow, EnrichedCallRecord } from './call-record.row';

/**
 * Up to this many ids, call_id's bloom filter (1% false positives per id and granule) still skips
 * most granules; with more, nearly every granule has a false positive for some id, so the index
 * only costs its own reading and testing (measured: ~40% of the lookup's engine CPU at 2,000 ids).
 */
const BLOOM_FILTER_MAX_IDS = 64;

export const callKey = (accountId: string, callId: string): string => `${accountId}\u0000${callId}`;

/**
 * The stored version of each call of a batch, to cancel it in the same INSERT. Two steps, because
 * FINAL does not move WHERE to PREWHERE: it would read and merge every column of the account's rows
 * on each flush, a cost that grows with the table. First which ids exist at all (the call_id column
 * only, no FINAL; usually none); then the live version of those few, with call_id in PREWHERE,
 * which is safe under FINAL because call_id is part of the sorting key, so whole collapsing groups
 * are kept or dropped together.
 */
export async function previousVersions(
  clickhouse: ClickHouseExecutor,
  records: EnrichedCallRecord[],
): Promise<Map<string, CallRow>> {
  const byAccount = new Map<string, string[]>();
  for (const r of records) {
    const ids = byAccount.get(r.account_id);
    if (ids) ids.push(r.id);
    else byAccount.set(r.account_id, [r.id]);
  }
  const found = new Map<string, CallRow>();
  for (const [accountId, ids] of byAccount) {
    const skipIndexes = ids.length <= BLOOM_FILTER_MAX_IDS ? 1 : 0;
    const existing = await clickhouse.query<{ call_id: string }>(
      `SELECT DISTINCT call_id FROM ${CALL_RECORDS.name} PREWHERE call_id IN {ids:Array(String)} WHERE account_id = {account:String} ` +
        `SETTINGS use_skip_indexes = ${skipIndexes}`,
      { account: accountId, ids },
    );
    if (existing.length === 0) continue;
    const rows = await clickhouse.query<CallRow>(
      `SELECT * EXCEPT (sign) FROM ${CALL_RECORDS.name} FINAL PREWHERE call_id IN {ids:Array(String)} WHERE account_id = {account:String}`,
      { account: accountId, ids: existing.map((row) => row.call_id) },
    );
    for (const row of rows) found.set(callKey(row.account_id, row.call_id), { ...row, sign: 1 });
  }
  return found;
}
