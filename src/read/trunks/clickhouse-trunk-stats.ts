import { Inject, Injectable } from '@nestjs/common';
import { CLICKHOUSE, ClickHouseExecutor } from '../../infrastructure/clickhouse/clickhouse.port';
import { TrunkStats, TrunkStatsReader } from './trunk-stats.port';

const DAY_MS = 86_400_000;

/** The `stats` of a trunk-list page: one query on the hourly aggregates for the whole page. */
@Injectable()
export class ClickHouseTrunkStats implements TrunkStatsReader {
  constructor(@Inject(CLICKHOUSE) private readonly clickhouse: ClickHouseExecutor) {}

  async statsFor(accountId: string, trunkIds: string[], now: Date): Promise<Map<string, TrunkStats>> {
    const dayStart = Math.floor(now.getTime() / DAY_MS) * DAY_MS;
    const rows = await this.clickhouse.query<{ trunk_id: string; calls: number | string; connected: number | string; latency_calls: number | string; latency_sum: number | string }>(
      `SELECT trunk_id, sum(calls) AS calls, sum(connected) AS connected, sum(latency_calls) AS latency_calls, sum(total_latency_sum) AS latency_sum
       FROM call_stats_hourly
       WHERE account_id = {account:String} AND hour >= toDateTime({day_s:Int64}, 'UTC') AND trunk_id IN {ids:Array(String)}
       GROUP BY trunk_id`,
      { account: accountId, day_s: dayStart / 1000, ids: trunkIds },
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
