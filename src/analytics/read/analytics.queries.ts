import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { CLICKHOUSE, ClickHouseExecutor, QueryParams } from '../../infrastructure/clickhouse/clickhouse.port';
import { AnalyticsOverviewQueryDto } from './analytics.dto';
import { addRow, avgInt, codecDistribution, emptyTotals, percent, ratio, round2, Totals } from './analytics.math';
import { aggregateRange, OverviewRow, overviewEdgesSql, overviewWholeHoursSql, trunkSeriesSql } from './analytics.sql';
import { OverviewCache } from './overview-cache';
import { edgePercentiles } from './overview-percentiles';
import { combineRows } from './overview-edge-rows';
import { gatewayBreakdown } from './gateway-breakdown';

import { analyticsRange, buckets, DAY, HOUR } from './analytics-range';

export class GetAnalyticsOverview {
  constructor(
    readonly accountId: string,
    readonly query: AnalyticsOverviewQueryDto,
    readonly now: Date,
  ) {}
}

/** One edge's read, as `planEdge` works it out. */
interface EdgePlan {
  edge: 1 | 2;
  key: string;
  /** The edge's hour, which the copy covers. */
  hour: number;
  /** The edge's side that moves with the range: the start edge's start, the end edge's end. */
  moving: number;
  /** The instants to read the raw rows of: the edge, the difference from its copy, or none (equal). */
  read: [number, number];
  copy?: readonly OverviewRow[];
  /** 1: the rows read are added to the copy; -1: taken out of it. */
  factor: 1 | -1;
}

interface Grouped {
  total: Totals;
  byTrunk: Map<string, Totals>;
  byBucket: Map<number, Totals>;
}

/**
 * Whole days come from the daily aggregates, the other whole hours from the hourly ones, and the
 * partial hours at either edge of the range from the raw records, so any instant range is exact,
 * not rounded to hours. Two statements (analytics.sql.ts), whose branches the engine runs in
 * parallel: the whole hours' (kept per account in this instance's OverviewCache until a write
 * touches one of its hours) and the edges'; their rows are added up here by kind.
 */
@QueryHandler(GetAnalyticsOverview)
export class GetAnalyticsOverviewHandler implements IQueryHandler<GetAnalyticsOverview, object> {
  constructor(
    @Inject(CLICKHOUSE) private readonly clickhouse: ClickHouseExecutor,
    private readonly cache: OverviewCache,
  ) {}

  async execute({ accountId, query, now }: GetAnalyticsOverview): Promise<object> {
    const { start, end } = analyticsRange(query, now);
    const hourly = query.granularity === 'hourly';
    const params = rangeParams(accountId, query.trunk_id, start, end, hourly);
    const [whole, edges] = await Promise.all([
      this.wholeHours(accountId, query.trunk_id, hourly, params),
      this.edges(accountId, query.trunk_id, hourly, params, now),
    ]);
    const rows = [...whole, ...edges];
    const answer = present(grouped(rows, edgePercentiles(whole, edges)), dimension(rows), start, end, hourly);
    if (query.trunk_series)
      await this.addTrunkSeries(answer.by_trunk.slice(0, query.trunk_series), accountId, start, end, hourly);
    return { ...answer, ...gatewayBreakdown(rows) };
  }

  /** The whole-hours statement's rows, from this instance's copy when it holds one. */
  private async wholeHours(
    accountId: string,
    trunkId: string | undefined,
    hourly: boolean,
    params: QueryParams,
  ): Promise<readonly OverviewRow[]> {
    const fromMs = Number(params.h0_s) * 1000;
    const toMs = Number(params.h1_s) * 1000;
    if (fromMs >= toMs) return [];
    const key = JSON.stringify(['whole hours', accountId, trunkId ?? null, hourly, fromMs, toMs]);
    const copy = this.cache.get(key);
    if (copy) return copy;
    const ticket = this.cache.ticket();
    const rows = await this.clickhouse.query<OverviewRow>(overviewWholeHoursSql(hourly, !!trunkId), params);
    this.cache.set(key, accountId, fromMs, toMs, rows, ticket);
    return rows;
  }

  /**
   * The edges statement's rows. Each edge's partial hour, once it is a past hour, is kept like the
   * whole hours (dropped when the writer stores rows in its hour), keyed by its side on a whole
   * hour (the start edge's end, the end edge's start) and holding the instant of its other side,
   * which moves with the range. A request whose edge is kept reads, instead of that edge, the raw
   * rows between the kept instant and its own (added to the copy, or taken out of it) when they
   * are fewer instants than the edge itself: a "last 30 days up to now" dashboard's start edge
   * moves by the seconds between its requests. An edge kept at its very instant is read not at
   * all; when no raw rows are left to read, the statement has no raw-row branch, only the
   * rejections and the trunk names. The current hour is written all the time (its copy would be
   * dropped at once): an edge in it is always read.
   */
  private async edges(
    accountId: string,
    trunkId: string | undefined,
    hourly: boolean,
    params: QueryParams,
    now: Date,
  ): Promise<readonly OverviewRow[]> {
    const currentHour = Math.floor(now.getTime() / HOUR) * HOUR;
    const ticket = this.cache.ticket();
    const read: QueryParams = { ...params };
    const plans: EdgePlan[] = [];
    for (const edge of [1, 2] as const) {
      const plan = this.planEdge(edge, accountId, trunkId, hourly, params, currentHour);
      if (!plan) continue;
      plans.push(plan);
      read[`from${edge}_ms`] = plan.read[0];
      read[`to${edge}_ms`] = plan.read[1];
    }
    const rawRows = [1, 2].some((edge) => Number(read[`from${edge}_ms`]) < Number(read[`to${edge}_ms`]));
    const rows = await this.clickhouse.query<OverviewRow>(overviewEdgesSql(hourly, !!trunkId, rawRows), read);
    if (plans.length === 0) return rows;
    const out = rows.filter((row) => !plans.some((plan) => plan.edge === Number(row.edge)));
    for (const plan of plans) {
      const fresh = rows.filter((row) => Number(row.edge) === plan.edge);
      if (plan.copy && plan.read[0] === plan.read[1]) {
        out.push(...plan.copy);
        continue;
      }
      const edgeRows = plan.copy
        ? combineRows([
            { rows: plan.copy, factor: 1 },
            { rows: fresh, factor: plan.factor },
          ])
        : fresh;
      this.cache.set(plan.key, accountId, plan.hour, plan.hour + HOUR, edgeRows, ticket, plan.moving);
      out.push(...edgeRows);
    }
    return out;
  }

  /**
   * What to read of one edge kept in a past hour: the edge itself (no copy, or one further away
   * than the edge is long), the instants between the copy's and the edge's moving side (factor 1
   * to add them to the copy, -1 to take them out), or nothing. Undefined for an edge that is
   * empty or in the current hour (read as it is, not kept).
   */
  private planEdge(
    edge: 1 | 2,
    accountId: string,
    trunkId: string | undefined,
    hourly: boolean,
    params: QueryParams,
    currentHour: number,
  ): EdgePlan | undefined {
    const fromMs = Number(params[`from${edge}_ms`]);
    const toMs = Number(params[`to${edge}_ms`]);
    const hour = Math.floor(fromMs / HOUR) * HOUR;
    if (fromMs >= toMs || hour >= currentHour) return undefined;
    const [fixed, moving] = edge === 1 ? [toMs, fromMs] : [fromMs, toMs];
    const key = JSON.stringify(['edge', edge, accountId, trunkId ?? null, hourly, fixed]);
    const plan: EdgePlan = { edge, key, hour, moving, read: [fromMs, toMs], factor: 1 };
    const copy = this.cache.entry(key);
    if (copy?.moving === undefined || Math.abs(moving - copy.moving) >= toMs - fromMs) return plan;
    const between: [number, number] = [Math.min(moving, copy.moving), Math.max(moving, copy.moving)];
    // The start edge grows when its start moves back, the end edge when its end moves on.
    const grows = edge === 1 ? moving < copy.moving : moving > copy.moving;
    return { ...plan, copy: copy.rows, read: between, factor: grows ? 1 : -1 };
  }

  /**
   * trunk_series: the busiest trunks' own timeseries from one more statement, computed as the
   * overview with trunk_id computes its buckets, so each equals that trunk's own answer.
   */
  private async addTrunkSeries(
    trunks: { trunk_id: string; timeseries?: object[] }[],
    accountId: string,
    start: Date,
    end: Date,
    hourly: boolean,
  ): Promise<void> {
    if (trunks.length === 0) return;
    const rows = await this.clickhouse.query<OverviewRow>(trunkSeriesSql(hourly), {
      ...rangeParams(accountId, undefined, start, end),
      trunks: trunks.map((trunk) => trunk.trunk_id),
    });
    const byTrunk = new Map<string, Map<number, Totals>>();
    for (const row of rows) {
      const bucket = slot(slotMap(byTrunk, row.key), Number(row.pos) * 1000);
      if (row.kind === 'bucket') addRow(bucket, row);
      else bucket.pct = pctOf(row);
    }
    for (const trunk of trunks)
      trunk.timeseries = timeseries(byTrunk.get(trunk.trunk_id) ?? new Map(), start, end, hourly);
  }
}

function slotMap(map: Map<string, Map<number, Totals>>, key: string): Map<number, Totals> {
  let inner = map.get(key);
  if (!inner) map.set(key, (inner = new Map()));
  return inner;
}

function pctOf(row: OverviewRow): [number, number, number] {
  return [Number(row.v[0] ?? 0), Number(row.v[1] ?? 0), Number(row.v[2] ?? 0)];
}

/** One entry per bucket of the range, empty ones included. */
function timeseries(byBucket: Map<number, Totals>, start: Date, end: Date, hourly: boolean) {
  return buckets(start, end, hourly).map((at) => {
    const b = byBucket.get(at) ?? emptyTotals();
    return {
      timestamp: new Date(at).toISOString(),
      calls: b.calls,
      avg_latency_ms: avgInt(b.totalLatencySum, b.latencyCalls),
      success_rate: percent(b.connected, b.calls),
      p50_latency_ms: b.pct[0],
      p95_latency_ms: b.pct[1],
      p99_latency_ms: b.pct[2],
    };
  });
}

function grouped(rows: OverviewRow[], edges: ReturnType<typeof edgePercentiles>): Grouped {
  const g: Grouped = { total: emptyTotals(), byTrunk: new Map(), byBucket: new Map() };
  for (const row of rows) {
    if (row.kind === 'total') addRow(g.total, row);
    else if (row.kind === 'trunk') addRow(slot(g.byTrunk, row.key), row);
    else if (row.kind === 'bucket') addRow(slot(g.byBucket, Number(row.pos) * 1000), row);
    else if (row.kind === 'pct') slot(g.byBucket, Number(row.pos) * 1000).pct = pctOf(row);
  }
  // The range's percentiles, and those of the buckets the partial edge hours fall in.
  g.total.pct = edges.total;
  for (const [at, pct] of edges.buckets) slot(g.byBucket, at).pct = pct;
  return g;
}

function dimension(rows: OverviewRow[]): Map<string, { name: string; provider: string }> {
  const names = rows.filter((row) => row.kind === 'name');
  return new Map(names.map((row) => [row.key, { name: row.names[0], provider: row.names[1] }]));
}

/**
 * The whole hours of [start, end] for the aggregates, the partial hours at its edges for the raw
 * rows, and [start, end] itself for the rejections.
 */
function rangeParams(
  accountId: string,
  trunkId: string | undefined,
  start: Date,
  end: Date,
  hourly = true,
): QueryParams {
  const from = start.getTime();
  const to = end.getTime() + 1;
  let wholeFrom = Math.ceil(from / HOUR) * HOUR;
  let wholeTo = Math.floor(to / HOUR) * HOUR;
  if (wholeFrom >= wholeTo) wholeFrom = wholeTo = to;
  // The partial hours at the edges come from the raw rows; an empty range where there is none.
  return {
    account: accountId,
    ...(trunkId ? { trunk: trunkId } : {}),
    ...aggregateRange(wholeFrom, wholeTo),
    from1_ms: from,
    to1_ms: wholeFrom,
    from2_ms: wholeTo,
    to2_ms: to,
    from_ms: from,
    to_ms: end.getTime(),
    // The buckets the partial edge hours may fall in (their whole hours' bins are kept apart).
    e1_s: bucketOf(wholeFrom - HOUR, hourly) / 1000,
    e2_s: bucketOf(wholeTo, hourly) / 1000,
  };
}

const bucketOf = (ms: number, hourly: boolean): number => {
  const step = hourly ? HOUR : DAY;
  return Math.max(0, Math.floor(ms / step) * step);
};

function slot<K>(map: Map<K, Totals>, key: K): Totals {
  let totals = map.get(key);
  if (!totals) map.set(key, (totals = emptyTotals()));
  return totals;
}

function present(
  g: Grouped,
  dimension: Map<string, { name: string; provider: string }>,
  start: Date,
  end: Date,
  hourly: boolean,
) {
  const t = g.total;
  const byProvider = new Map<string, Totals>();
  for (const [trunkId, totals] of g.byTrunk) {
    const provider = slot(byProvider, dimension.get(trunkId)?.provider ?? 'unknown');
    provider.calls += totals.calls;
    provider.connected += totals.connected;
    provider.latencyCalls += totals.latencyCalls;
    provider.totalLatencySum += totals.totalLatencySum;
  }
  return {
    period: { start_date: start.toISOString(), end_date: end.toISOString() },
    summary: {
      total_calls: t.calls,
      connected_calls: t.connected,
      failed_calls: t.failed,
      success_rate: percent(t.connected, t.calls),
      total_duration_seconds: t.durationSum,
      avg_duration_seconds: round2(ratio(t.durationSum, t.calls)),
      answered_calls: t.answered,
      total_billable_seconds: t.billableSum,
      avg_billable_seconds: round2(ratio(t.billableSum, t.answered)),
    },
    performance: {
      avg_carrier_lag_ms: avgInt(t.carrierSum, t.latencyCalls),
      avg_ai_latency_ms: avgInt(t.aiSum, t.latencyCalls),
      avg_gateway_processing_ms: avgInt(t.gatewaySum, t.latencyCalls),
      avg_total_latency_ms: avgInt(t.totalLatencySum, t.latencyCalls),
      p50_latency_ms: t.pct[0],
      p95_latency_ms: t.pct[1],
      p99_latency_ms: t.pct[2],
    },
    quality: {
      avg_packet_loss_percent: round2(ratio(t.lossSum, t.lossCalls)),
      avg_jitter_ms: avgInt(t.jitterSum, t.jitterCalls),
      avg_mos: t.mosCalls === 0 ? null : round2(t.mosCentiSum / t.mosCalls / 100),
      codec_distribution: codecDistribution(t.codecs),
    },
    by_provider: [...byProvider.entries()]
      .filter(([, p]) => p.calls > 0)
      .sort((a, b) => b[1].calls - a[1].calls || a[0].localeCompare(b[0]))
      .map(([provider, p]) => ({
        provider,
        call_count: p.calls,
        success_rate: percent(p.connected, p.calls),
        avg_latency_ms: avgInt(p.totalLatencySum, p.latencyCalls),
      })),
    by_trunk: [...g.byTrunk.entries()]
      .filter(([, tr]) => tr.calls > 0)
      .sort((a, b) => b[1].calls - a[1].calls || a[0].localeCompare(b[0]))
      .map(([trunkId, tr]) => ({
        trunk_id: trunkId,
        trunk_name: dimension.get(trunkId)?.name ?? trunkId,
        call_count: tr.calls,
        success_rate: percent(tr.connected, tr.calls),
      })),
    timeseries: timeseries(g.byBucket, start, end, hourly),
  };
}
