import type { Redis } from 'ioredis';
import type { ClickHouseExecutor } from '../../src/infrastructure/clickhouse/clickhouse.port';
import { accountKeys } from '../../src/accounts/projections/accounts.projection';
import { trunkKeys } from '../../src/trunks/projections/trunk-view';

export interface Check {
  what: string;
  expected: number;
  found: number;
}

async function countKeys(redis: Redis, match: string): Promise<number> {
  let cursor = '0';
  let count = 0;
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', match, 'COUNT', 1000);
    count += keys.length;
    cursor = next;
  } while (cursor !== '0');
  return count;
}

/**
 * The rebuilt read models against what was appended, so a fast rebuild that skipped events
 * cannot pass for a good one: accounts, live trunks, gateway change feed, dimension rows.
 */
export async function checkRebuilt(
  redis: Redis,
  namespace: string,
  clickhouse: ClickHouseExecutor,
  byType: Record<string, number>,
): Promise<Check[]> {
  const created = byType.TrunkCreated ?? 0;
  const deleted = byType.TrunkDeleted ?? 0;
  const [dimension] = await clickhouse.query<{ rows: string; deleted: string }>(
    'SELECT count() AS rows, sum(deleted) AS deleted FROM trunk_dimension FINAL',
  );
  return [
    { what: 'accounts', expected: byType.AccountCreated ?? 0, found: await redis.zcard(namespace + accountKeys.index) },
    {
      what: 'trunk views',
      expected: created - deleted,
      found: await countKeys(redis, `${namespace}${trunkKeys.trunkPrefix}*`),
    },
    { what: 'gateway change feed', expected: created, found: await redis.zcard(namespace + trunkKeys.gatewayChanges) },
    { what: 'dimension rows', expected: created, found: Number(dimension?.rows ?? 0) },
    { what: 'dimension rows deleted', expected: deleted, found: Number(dimension?.deleted ?? 0) },
  ];
}
