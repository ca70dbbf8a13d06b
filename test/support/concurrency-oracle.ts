/**
 * Concurrent calls the slow, obvious way: at every instant where the count can change, count the
 * calls in progress one by one. The oracle of GET /v1/analytics/concurrency's sweep.
 */
export interface Span {
  start: number;
  end: number;
}

const HOUR = 3_600_000;
const DAY = 86_400_000;
const round2 = (value: number): number => Math.round(value * 100) / 100;

interface Window {
  peak: number;
  peakAt: number | null;
  area: number;
}

function sweepWindow(spans: Span[], lo: number, hi: number): Window {
  const inProgress = (x: number) => spans.filter((s) => s.start <= x && x < s.end).length;
  const instants = [...new Set([lo, ...spans.flatMap((s) => [s.start, s.end]).filter((x) => x >= lo && x < hi)])].sort(
    (a, b) => a - b,
  );
  let peak = 0;
  let peakAt: number | null = null;
  let area = 0;
  instants.forEach((x, i) => {
    const count = inProgress(x);
    if (count > peak) [peak, peakAt] = [count, x];
    area += count * ((instants[i + 1] ?? hi) - x);
  });
  return { peak, peakAt, area };
}

/** What the endpoint must answer for these spans over [start, end] (end inclusive, to the millisecond). */
export function expectedConcurrency(spans: Span[], start: Date, end: Date, hourly: boolean) {
  const step = hourly ? HOUR : DAY;
  const from = start.getTime();
  const to = end.getTime() + 1;
  const iso = (at: number | null) => (at === null ? null : new Date(at).toISOString());
  const timeseries = [];
  let total: Window = { peak: 0, peakAt: null, area: 0 };
  for (let at = Math.floor(from / step) * step; at < to; at += step) {
    const [lo, hi] = [Math.max(at, from), Math.min(at + step, to)];
    const w = sweepWindow(spans, lo, hi);
    if (w.peak > total.peak) total = { ...w, area: total.area };
    total.area += w.area;
    timeseries.push({
      timestamp: new Date(at).toISOString(),
      peak_concurrent_calls: w.peak,
      peak_at: iso(w.peakAt),
      mean_concurrent_calls: round2(w.area / (hi - lo)),
    });
  }
  return {
    peak_concurrent_calls: total.peak,
    peak_at: iso(total.peakAt),
    mean_concurrent_calls: round2(total.area / (to - from)),
    timeseries,
  };
}
