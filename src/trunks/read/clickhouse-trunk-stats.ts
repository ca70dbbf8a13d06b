import { CALL_STATS_HOURLY } from '../../infrastructure/clickhouse/schema';
import { Inject, Injectable } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import { CLICKHOUSE, ClickHouseExecutor } from '../../infrastructure/clickhouse/clickhouse.port';
import { TrunkStats, TrunkStatsReader } from './trunk-stats.port';

const DAY_MS = 86_400_000;
/**
 * How long one account's figures for today are reused. Trunk-list pages come in bursts (a script
 * paging through 10,000 trunks); one query a second per account instead of one per page keeps
 * the analytics engine free for analytics. `stats` may lag ingestion by this much.
 */
const TTL_MS = 2_000;
/** Accounts whose figures are kept at most; the least recently asked for go first. */
const ACCOUNTS = 10_000;

interface Entry {
  at: number;
  day: number;
  stats: Promise<Map<string, TrunkStats>>;
}

/** The `stats` of trunk-list pages: one query on the hourly aggregates for the whole account. */
@Injectable()
export class ClickHouseTrunkStats implements TrunkStatsReader {
  private readonly cache = new LRUCache<string, Entry>({ max: ACCOUNTS });

  constructor(@Inject(CLICKHOUSE) private readonly clickhouse: ClickHouseExecutor) {}

  async statsFor(accountId: string, trunkIds: string[], now: Date): Promise<Map<string, TrunkStats>> {
    const all = await this.today(accountId, now);
    return new Map(trunkIds.filter((id) => all.has(id)).map((id) => [id, all.get(id)!]));
  }

  private today(accountId: string, now: Date): Promise<Map<string, TrunkStats>> {
    const day = Math.floor(now.getTime() / DAY_MS) * DAY_MS;
    const cached = this.cache.get(accountId);
    if (cached && cached.day === day && now.getTime() - cached.at < TTL_MS) return cached.stats;
    const stats = this.query(accountId, day);
    this.cache.set(accountId, { at: now.getTime(), day, stats });
    stats.catch(() => this.cache.delete(accountId));
    return stats;
  }

  private async query(accountId: string, dayStart: number): Promise<Map<string, TrunkStats>> {
    const rows = await this.clickhouse.query<{
      trunk_id: string;
      calls: number | string;
      connected: number | string;
      latency_calls: number | string;
      latency_sum: number | string;
    }>(
      `SELECT trunk_id, sum(calls) AS calls, sum(connected) AS connected, sum(latency_calls) AS latency_calls, sum(total_latency_sum) AS latency_sum
       FROM ${CALL_STATS_HOURLY.name}
       WHERE account_id = {account:String} AND hour >= toDateTime({day_s:Int64}, 'UTC')
       GROUP BY trunk_id`,
      { account: accountId, day_s: dayStart / 1000 },
    );
    const stats = new Map<string, TrunkStats>();
    for (const row of rows) {
      const calls = Number(row.calls);
      const latencyCalls = Number(row.latency_calls);
      stats.set(row.trunk_id, {
        calls_today: calls,
        success_rate: calls === 0 ? 0 : Math.round((10_000 * Number(row.connected)) / calls) / 100,
        avg_latency_ms: latencyCalls === 0 ? 0 : Math.round(Number(row.latency_sum) / latencyCalls),
      });
    }
    return stats;
  }
}
