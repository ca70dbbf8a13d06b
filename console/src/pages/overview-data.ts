import { api, call, type Schemas } from '../api';

type Overview = Schemas['AnalyticsOverviewDto'];
export type Granularity = 'hourly' | 'daily';

export interface RangeChoice {
  range: string;
  start: string;
  end: string;
  granularity: Granularity;
}

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
export const PRESETS: Record<string, { label: string; span: number; granularity: Granularity }> = {
  '24h': { label: 'Last 24 hours', span: DAY, granularity: 'hourly' },
  '7d': { label: 'Last 7 days', span: 7 * DAY, granularity: 'daily' },
  '30d': { label: 'Last 30 days', span: 30 * DAY, granularity: 'daily' },
};

/** The range in the URL (#/overview?range=7d, or range=custom&start=…&end=…&granularity=…). */
export function rangeOf(query: URLSearchParams, now = Date.now()): RangeChoice {
  const preset = PRESETS[query.get('range') ?? '24h'];
  if (preset) {
    return {
      range: query.get('range') ?? '24h',
      start: new Date(now - preset.span).toISOString(),
      end: new Date(now).toISOString(),
      granularity: preset.granularity,
    };
  }
  const granularity = query.get('granularity') === 'daily' ? 'daily' : 'hourly';
  return {
    range: 'custom',
    start: query.get('start') ?? new Date(now - DAY).toISOString().slice(0, 10),
    end: query.get('end') ?? new Date(now).toISOString().slice(0, 10),
    granularity,
  };
}

/** The busiest trunks the overview's answer carries series for (the latency-by-trunk chart). */
export const BUSIEST_TRUNKS = 5;

/**
 * The overview of a range (of one trunk with trunkId). Without a trunk it asks for the busiest
 * trunks' own series too (trunk_series), so the whole page is one request.
 */
export function overview(range: RangeChoice, trunkId?: string, signal?: AbortSignal): Promise<Overview> {
  return call(
    api().GET('/analytics/overview', {
      signal,
      params: {
        query: {
          start_date: range.start,
          end_date: range.end,
          granularity: range.granularity,
          ...(trunkId ? { trunk_id: trunkId } : { trunk_series: BUSIEST_TRUNKS }),
        },
      },
    }),
  );
}

/**
 * Each of the busiest trunks' own timeseries, from the same answer (trunk_series), aligned on its
 * buckets by timestamp (a bucket a trunk's series lacks is a gap, never a shifted point).
 */
export function trunkSeries(main: Overview) {
  return main.by_trunk
    .filter((trunk) => trunk.timeseries)
    .map((trunk) => {
      const byTime = new Map((trunk.timeseries ?? []).map((p) => [p.timestamp, p]));
      return { trunk, series: main.timeseries.map((p) => byTime.get(p.timestamp) ?? null) };
    });
}

/** Whether a bucket is cut by the range's start or end (fewer hours or minutes than the others). */
export function partialBuckets(range: RangeChoice, timestamps: string[]): boolean[] {
  const step = range.granularity === 'hourly' ? HOUR : DAY;
  const start = Date.parse(range.start);
  const end = Date.parse(range.end);
  return timestamps.map((t) => {
    const from = Date.parse(t);
    return from < start || from + step > end;
  });
}

export const bucketMs = (granularity: Granularity) => (granularity === 'hourly' ? HOUR : DAY);

export const PALETTE = ['#1f6feb', '#c2410c', '#15803d', '#7c3aed', '#b91c1c', '#0e7490'];
