import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { CLICKHOUSE, ClickHouseExecutor } from '../../infrastructure/clickhouse/clickhouse.port';
import { AnalyticsQueryDto } from './analytics.dto';
import { analyticsRange, buckets, DAY, HOUR } from './analytics-range';
import { round2 } from './analytics.math';
import { concurrencySql } from './concurrency.sql';

export class GetConcurrency {
  constructor(
    readonly accountId: string,
    readonly query: AnalyticsQueryDto,
    readonly now: Date,
  ) {}
}

interface BucketRow {
  bucket: number | string;
  peak: number | string;
  peak_at: number | string;
  area: number | string;
}

interface Figures {
  peak_concurrent_calls: number;
  peak_at: string | null;
  mean_concurrent_calls: number;
}

/** Peak and mean concurrent calls of the range and of each bucket (concurrency.sql.ts). */
@QueryHandler(GetConcurrency)
export class GetConcurrencyHandler implements IQueryHandler<GetConcurrency, object> {
  constructor(@Inject(CLICKHOUSE) private readonly clickhouse: ClickHouseExecutor) {}

  async execute({ accountId, query, now }: GetConcurrency): Promise<object> {
    const { start, end } = analyticsRange(query, now);
    const hourly = query.granularity === 'hourly';
    const from = start.getTime();
    const to = end.getTime() + 1; // end_date is the range's last millisecond
    const starts = buckets(start, end, hourly);
    const rows = await this.clickhouse.query<BucketRow>(concurrencySql(!!query.trunk_id), {
      account: accountId,
      ...(query.trunk_id ? { trunk: query.trunk_id } : {}),
      from_ms: from,
      to_ms: to,
      step_ms: hourly ? HOUR : DAY,
      marks: [...starts.map((at) => Math.max(at, from)), to],
    });
    const byBucket = new Map(rows.map((row) => [Number(row.bucket), row]));
    let area = 0;
    let peak: Figures = { peak_concurrent_calls: 0, peak_at: null, mean_concurrent_calls: 0 };
    const timeseries = starts.map((at) => {
      const row = byBucket.get(at);
      const length = Math.min(at + (hourly ? HOUR : DAY), to) - Math.max(at, from);
      const figures = figuresOf(row, length);
      area += Number(row?.area ?? 0);
      if (figures.peak_concurrent_calls > peak.peak_concurrent_calls) peak = figures;
      return { timestamp: new Date(at).toISOString(), ...figures };
    });
    return {
      period: { start_date: start.toISOString(), end_date: end.toISOString() },
      granularity: hourly ? 'hourly' : 'daily',
      trunk_id: query.trunk_id ?? null,
      peak_concurrent_calls: peak.peak_concurrent_calls,
      peak_at: peak.peak_at,
      mean_concurrent_calls: round2(area / (to - from)),
      timeseries,
    };
  }
}

function figuresOf(row: BucketRow | undefined, lengthMs: number): Figures {
  const peak = Number(row?.peak ?? 0);
  return {
    peak_concurrent_calls: peak,
    peak_at: peak > 0 ? new Date(Number(row!.peak_at)).toISOString() : null,
    mean_concurrent_calls: round2(Number(row?.area ?? 0) / lengthMs),
  };
}
