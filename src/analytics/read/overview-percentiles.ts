import type { OverviewRow } from './analytics.sql';

type Bins = Map<number, number>;
export type Percentiles = [number, number, number];

const LEVELS = [0.5, 0.95, 0.99] as const;

/**
 * Nearest-rank p50/p95/p99 of a histogram (bin → count; counts ≤ 0 are left out, as the SQL's
 * `HAVING n > 0`): the smallest bin whose cumulative count reaches ceil(p × n), which is what
 * ClickHouse's quantilesExactWeighted returns; 0 for an empty histogram.
 */
export function nearestRanks(bins: Bins): Percentiles {
  const sorted = [...bins.entries()].filter(([, n]) => n > 0).sort((a, b) => a[0] - b[0]);
  const total = sorted.reduce((sum, [, n]) => sum + n, 0);
  if (sorted.length === 0) return [0, 0, 0];
  return LEVELS.map((level) => {
    const threshold = Math.ceil(total * level);
    let accumulated = 0;
    for (const [bin, n] of sorted) {
      accumulated += n;
      if (accumulated >= threshold) return bin;
    }
    return sorted[sorted.length - 1][0];
  }) as Percentiles;
}

function add(into: Bins, bin: number, n: number): void {
  into.set(bin, (into.get(bin) ?? 0) + n);
}

/**
 * The percentiles the whole-hours statement could not know: those of the range, and of the
 * buckets the partial edge hours fall in. `rows` are both statements' rows: the whole hours'
 * 'bin' rows hold the range's bins (key '') and the edge buckets' (key their second; '0' is
 * neither), the edges' 'bin' rows each edge bucket's raw bins. An edge bucket's histogram is its
 * whole hours' bins plus its raw bins; the range's is the whole hours' plus every raw bin, each
 * (bucket, bin) count kept only when positive, as the one-statement SQL did.
 */
export function edgePercentiles(
  wholeRows: readonly OverviewRow[],
  edgeRows: readonly OverviewRow[],
): { total: Percentiles; buckets: Map<number, Percentiles> } {
  const range: Bins = new Map();
  const wholeOfBucket = new Map<string, Bins>();
  for (const row of wholeRows) {
    if (row.kind !== 'bin' || row.key === '0') continue;
    if (row.key === '') add(range, Number(row.pos), Number(row.v[0] ?? 0));
    else add(binsOf(wholeOfBucket, row.key), Number(row.pos), Number(row.v[0] ?? 0));
  }
  const merged = new Map<string, Bins>();
  for (const row of edgeRows)
    if (row.kind === 'bin') add(binsOf(merged, row.key), Number(row.pos), Number(row.v[0] ?? 0));
  const buckets = new Map<number, Percentiles>();
  for (const [key, bins] of merged) {
    // The range's bins counted this bucket's whole hours already (positive counts only): take them
    // out, and put the bucket's merged positive counts in.
    for (const [bin, n] of wholeOfBucket.get(key) ?? []) {
      if (n > 0) add(range, bin, -n);
      add(bins, bin, n);
    }
    for (const [bin, n] of bins) if (n > 0) add(range, bin, n);
    buckets.set(Number(key) * 1000, nearestRanks(bins));
  }
  return { total: nearestRanks(range), buckets };
}

function binsOf(map: Map<string, Bins>, key: string): Bins {
  let bins = map.get(key);
  if (!bins) map.set(key, (bins = new Map()));
  return bins;
}
