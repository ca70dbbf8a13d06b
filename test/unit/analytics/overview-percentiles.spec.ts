import type { OverviewRow } from '../../../src/analytics/read/analytics.sql';
import { edgePercentiles, nearestRanks } from '../../../src/analytics/read/overview-percentiles';

const bin = (key: string, pos: number, n: number): OverviewRow => ({
  kind: 'bin',
  key,
  pos,
  v: [n],
  loss: 0,
  codecs: [[], []],
  names: [],
  edge: 0,
});

/** The nearest rank of a plain list of values: the value at position ceil(p × n) (1-based). */
function exact(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.max(1, Math.ceil(p * sorted.length)) - 1];
}

function histogram(values: number[]): Map<number, number> {
  const bins = new Map<number, number>();
  for (const v of values) bins.set(v, (bins.get(v) ?? 0) + 1);
  return bins;
}

describe('overview percentiles from latency bins', () => {
  it('is the nearest rank of the values, counts below 1 left out', () => {
    let seed = 7;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648) % 500;
    for (const size of [1, 2, 3, 19, 20, 21, 100, 1001]) {
      const values = Array.from({ length: size }, next);
      const bins = histogram(values);
      bins.set(10_000, 0);
      bins.set(20_000, -3);
      expect(nearestRanks(bins)).toEqual([exact(values, 0.5), exact(values, 0.95), exact(values, 0.99)]);
    }
    expect(nearestRanks(new Map())).toEqual([0, 0, 0]);
  });

  it("adds the edges' bins to their buckets' whole hours and to the range", () => {
    const wholeValues = { b100: [5, 7, 9], b200: [50, 60], b300: [300] };
    const edgeValues = { b100: [1, 2], b400: [900, 901, 902] };
    const whole = [
      ...[...histogram(Object.values(wholeValues).flat())].map(([v, n]) => bin('', v, n)),
      ...[...histogram(wholeValues.b100)].map(([v, n]) => bin('100', v, n)),
      bin('0', 50, 1), // another bucket's bins: not an edge bucket, left out
    ];
    const edges = [
      ...[...histogram(edgeValues.b100)].map(([v, n]) => bin('100', v, n)),
      ...[...histogram(edgeValues.b400)].map(([v, n]) => bin('400', v, n)),
    ];
    const { total, buckets } = edgePercentiles(whole, edges);
    const all = [...Object.values(wholeValues).flat(), ...Object.values(edgeValues).flat()];
    expect(total).toEqual([exact(all, 0.5), exact(all, 0.95), exact(all, 0.99)]);
    const b100 = [...wholeValues.b100, ...edgeValues.b100];
    expect(buckets.get(100_000)).toEqual([exact(b100, 0.5), exact(b100, 0.95), exact(b100, 0.99)]);
    expect(buckets.get(400_000)).toEqual([901, 902, 902]);
    expect(buckets.has(200_000)).toBe(false);
  });
});
